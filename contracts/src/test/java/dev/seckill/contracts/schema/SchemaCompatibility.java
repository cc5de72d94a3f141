package dev.seckill.contracts.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The compatibility gate (docs/contracts.md, "Versioning"): what a schema change breaks for the events' readers, as
 * the released schema set says them. A break is a field removed, retyped (its {@code type}, {@code $ref},
 * {@code format} or {@code const}), a field newly required, a bound or pattern changed, an enum value removed, or a
 * value added to an enum readers must interpret — every enum but one marked {@code "x-open-enum": true} (a set readers
 * are told to skip unknown members of, e.g. the command {@code type}: a new command is a new event). A schema whose
 * {@code v} changed is a new version, checked against nothing (the old one is kept beside it). A new optional field is
 * never a break: readers ignore fields they do not know.
 */
final class SchemaCompatibility {
    static final String OPEN_ENUM = "x-open-enum";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The keywords whose change alters what a valid value is, beyond its type. */
    private static final List<String> BOUNDS =
            List.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern");

    private SchemaCompatibility() {}

    /**
     * The breaks from every released schema file in {@code released} (a version's folder, {@code v<N>}) to the current
     * one in {@code current}: {@code X.v<N>.json} when a later version took the name {@code X.json}, else {@code X.json}.
     */
    static List<String> breaks(Path released, Path current) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(released)) {
            for (Path old :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = old.getFileName().toString();
                Path kept = current.resolve(name.replace(".json", "." + released.getFileName() + ".json"));
                Path now = Files.exists(kept) ? kept : current.resolve(name);
                if (!Files.exists(now)) {
                    out.add(name + ": removed");
                    continue;
                }
                out.addAll(breaks(name, JSON.readTree(old.toFile()), JSON.readTree(now.toFile())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The breaks from one released schema document to its current one. */
    static List<String> breaks(String name, JsonNode released, JsonNode current) {
        List<String> out = new ArrayList<>();
        JsonNode v = released.path("properties").path("v");
        if (!v.isMissingNode() && !v.equals(current.path("properties").path("v"))) return out; // a new version
        compare(name, released, current, out);
        return out;
    }

    private static void compare(String at, JsonNode old, JsonNode now, List<String> out) {
        for (String keyword : List.of("type", "$ref", "format", "const"))
            if ((old.has(keyword) || now.has(keyword))
                    && !String.valueOf(old.get(keyword)).equals(String.valueOf(now.get(keyword))))
                out.add(at + ": retyped (" + keyword + " " + old.get(keyword) + " → " + now.get(keyword) + ")");
        for (String keyword : BOUNDS)
            if (!String.valueOf(old.get(keyword)).equals(String.valueOf(now.get(keyword))))
                out.add(at + ": " + keyword + " changed (" + old.get(keyword) + " → " + now.get(keyword) + ")");
        Set<String> required = strings(now.path("required"));
        required.removeAll(strings(old.path("required")));
        for (String field : required)
            if (old.path("properties").has(field) || now.path("properties").has(field))
                out.add(at + ": newly required field " + field);
        enums(at, old, now, out);
        children(at, "properties", old, now, out, true);
        children(at, "$defs", old, now, out, true);
        children(at, "items", old, now, out, false);
        conditionals(at, old, now, out);
    }

    private static void enums(String at, JsonNode old, JsonNode now, List<String> out) {
        if (!old.has("enum")) return;
        Set<String> before = strings(old.get("enum"));
        Set<String> after = strings(now.path("enum"));
        Set<String> removed = new TreeSet<>(before);
        removed.removeAll(after);
        for (String value : removed) out.add(at + ": enum value " + value + " removed");
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        if (!now.path(OPEN_ENUM).asBoolean(false))
            for (String value : added) out.add(at + ": enum value " + value + " added (readers must interpret it)");
    }

    /** The named children (properties, $defs) or the one child (items) of both versions. */
    private static void children(
            String at, String keyword, JsonNode old, JsonNode now, List<String> out, boolean named) {
        JsonNode before = old.get(keyword);
        if (before == null) return;
        JsonNode after = now.path(keyword);
        if (!named) {
            compare(at + "[]", before, after, out);
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = before.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String where = at + (keyword.equals("$defs") ? "#" : ".") + field.getKey();
            if (!after.has(field.getKey())) out.add(where + ": removed");
            else compare(where, field.getValue(), after.get(field.getKey()), out);
        }
    }

    /** The {@code allOf} branches' {@code then} parts (per-type rules), matched by position. */
    private static void conditionals(String at, JsonNode old, JsonNode now, List<String> out) {
        JsonNode before = old.get("allOf");
        if (before == null) return;
        JsonNode after = now.path("allOf");
        for (int i = 0; i < before.size(); i++) {
            if (!after.has(i)) {
                out.add(at + ": rule " + i + " of allOf removed");
                continue;
            }
            if (!before.get(i).path("if").equals(after.get(i).path("if")))
                out.add(at + ": rule " + i + " of allOf applies to other events now");
            else if (before.get(i).has("then"))
                compare(
                        at + "(rule " + i + ")",
                        before.get(i).get("then"),
                        after.get(i).path("then"),
                        out);
        }
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new TreeSet<>();
        if (array != null) array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
