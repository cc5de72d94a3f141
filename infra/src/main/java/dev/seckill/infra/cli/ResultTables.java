package dev.seckill.infra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.seckill.contracts.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables of docs/performance.md and docs/reliability.md that are made from what the commands printed with {@code
 * --json}: the documents are kept in {@link #DIR} as printed, and a block
 *
 * <pre>{@code
 * <!-- results: bench-hot-1.json bench-hot-2.json -->
 * (the command lines and the table, written by ./seckill docs)
 * <!-- /results -->
 * }</pre>
 *
 * is the table of those documents, one column of figures per document: a figure is never typed into those tables by
 * hand, and the command that measured it stands above it. {@code ./seckill docs} rewrites each block; a test fails
 * when one differs from its documents.
 */
final class ResultTables {
    static final String DIR = "docs/results";
    static final List<String> DOCS = List.of("docs/performance.md", "docs/reliability.md");

    private static final String OPENER = "<!-- results:";

    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- results: ([^>]+?) -->\\r?\\n)((?:(?!<!-- results:).)*?)(<!-- /results -->)", Pattern.DOTALL);

    private ResultTables() {}

    /** {@code doc} with each results block made from its documents under {@code root}. */
    static String render(String doc, Path root) throws IOException {
        int openers = doc.split(Pattern.quote(OPENER), -1).length - 1;
        long blocks = BLOCK.matcher(doc).results().count();
        if (openers != blocks)
            throw new IllegalArgumentException(openers + " results blocks opened, " + blocks + " well formed: each is '"
                    + OPENER + " a.json ... -->', a line break, then '<!-- /results -->'");
        Matcher m = BLOCK.matcher(doc);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<String> names = new ArrayList<>(List.of(m.group(2).trim().split("\\s+")));
            boolean headlines = names.get(0).equals(HeadlineTable.WORD);
            if (headlines) names.remove(0);
            List<JsonNode> runs = new ArrayList<>();
            for (String name : names) runs.add(read(root.resolve(DIR).resolve(name)));
            String table = headlines ? HeadlineTable.render(runs) : table(runs);
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + table + m.group(4)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static JsonNode read(Path document) throws IOException {
        try {
            return Json.MAPPER.readTree(Files.readString(document));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(document + " is not a --json document: " + e.getOriginalMessage(), e);
        }
    }

    /** The command lines and the table of {@code runs}, documents of one command. */
    static String table(List<JsonNode> runs) {
        String kind = kind(runs.get(0));
        for (JsonNode r : runs)
            if (!kind(r).equals(kind))
                throw new IllegalArgumentException("one table holds one command's runs: " + kind + " and " + kind(r));
        StringBuilder b = new StringBuilder();
        List<String> commands =
                runs.stream().map(ResultTables::command).distinct().toList();
        b.append(commands.size() == 1 ? "Measured by " : "Measured by, in turn, ");
        b.append(String.join(", ", commands.stream().map(c -> "`" + c + "`").toList()));
        b.append(runs.size() == 1 ? ", one run" : ", " + runs.size() + " runs, one after the other");
        return switch (kind) {
            case "bench hot" -> hot(b, runs);
            case "bench strategies" -> strategies(b, runs);
            case "bench answer" -> AnswerResultTable.render(b, runs);
            case "chaos" -> ChaosResultTable.render(b, runs);
            case "demo" -> DemoResultTable.render(b, runs);
            default -> throw new IllegalArgumentException("no results table for '" + kind + "' yet");
        };
    }

    /** {@code bench hot}: a row per bucket count and route, the runs' figures side by side. */
    private static String hot(StringBuilder b, List<JsonNode> runs) {
        b.append(" (raw Lua pipelined ")
                .append(joined(runs, r -> number(r.path("rawLuaPipelinedOpsPerSecond"), 0)))
                .append(" ops/s in them):\n\n");
        b.append(
                "| buckets | route | decisions/s steady | ×1 bucket | ×raw Lua pipelined | stream CPU per purchase (µs) |"
                        + " projected ×1 bucket, a core per bucket | sold |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        Map<String, List<JsonNode>> rows = byRun(
                runs,
                "runs",
                row -> row.path("buckets").asText() + " | " + row.path("route").asText("-"));
        rows.forEach((key, cells) -> b.append("| ")
                .append(key)
                .append(" | ")
                .append(joinedRows(cells, c -> number(c.path("steadyDecisionsPerSecond"), 0)))
                .append(" | ")
                .append(joinedRows(cells, c -> number(c.path("ofOneBucket"), 2)))
                .append(" | ")
                .append(joinedRows(cells, c -> number(c.path("ofRawLuaPipelined"), 2)))
                .append(" | ")
                .append(joinedRows(cells, c -> number(c.path("streamCpuMicrosPerPurchase"), 1)))
                .append(" | ")
                .append(joinedRows(
                        cells, c -> c.path("buckets").asInt() == 1 ? "-" : number(c.path("projectedOfOneBucket"), 2)))
                .append(" | ")
                .append(joinedRows(cells, c -> number(c.path("sold"), 0)))
                .append(" |\n"));
        return b.toString();
    }

    /** {@code bench strategies}: a row per strategy of the normal runs, a column per figure, the runs side by side. */
    private static String strategies(StringBuilder b, List<JsonNode> runs) {
        b.append(" (the pipeline's sale in ")
                .append(joined(runs, r -> r.at("/workload/buckets").asText("1")))
                .append(" bucket(s)):\n\n");
        String[][] columns = {
            {"answers/s", "/answersPerSecond", "0"},
            {"p50 ms", "/p50", "1"},
            {"p99 ms", "/p99", "1"},
            {"first second p50 ms", "/firstSecond/p50", "0"},
            {"first second p99 ms", "/firstSecond/p99", "0"},
            {"its accepted → decided p50 ms", "/firstSecond/hops/toDecided/p50", "0"},
            {"its accepted → decided p99 ms", "/firstSecond/hops/toDecided/p99", "0"},
            {"sold", "/audit/sold", "0"},
            {"oversold", "/audit/oversold", "0"},
            {"lost", "/audit/lost", "0"}
        };
        b.append("| strategy |");
        for (String[] c : columns) b.append(' ').append(c[0]).append(" |");
        b.append("\n|---|").append("---|".repeat(columns.length)).append('\n');
        byRun(runs, "normal", r -> r.path("strategy").asText()).forEach((strategy, cells) -> {
            b.append("| ").append(strategy).append(" |");
            for (String[] c : columns)
                b.append(' ')
                        .append(joinedRows(cells, n -> number(n.at(c[1]), Integer.parseInt(c[2]))))
                        .append(" |");
            b.append('\n');
        });
        return b.toString();
    }

    /**
     * The rows of {@code runs} by key, one cell per run in the runs' order: a row a run lacks holds a missing node
     * there (printed "-"), so no figure moves into another run's column.
     */
    static Map<String, List<JsonNode>> byRun(List<JsonNode> runs, String field, Function<JsonNode, String> key) {
        Map<String, List<JsonNode>> rows = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++)
            for (JsonNode row : runs.get(i).path(field)) {
                List<JsonNode> cells = rows.computeIfAbsent(key.apply(row), k -> new ArrayList<>());
                while (cells.size() < i) cells.add(MissingNode.getInstance());
                cells.add(row);
            }
        for (List<JsonNode> cells : rows.values())
            while (cells.size() < runs.size()) cells.add(MissingNode.getInstance());
        return rows;
    }

    /** The command a document came from, as it can be run again: {@code ./seckill <command>}, its flags, --json. */
    static String command(JsonNode doc) {
        StringBuilder c = new StringBuilder("./seckill ").append(kind(doc));
        doc.path("flags").fields().forEachRemaining(e -> {
            c.append(" --").append(e.getKey());
            String value = e.getValue().asText();
            if (!value.equals("true")) c.append(' ').append(quoted(value));
        });
        return c.append(" --json").toString();
    }

    /** A value as a shell reads it back: as is when plain, else in single quotes. */
    private static String quoted(String value) {
        return value.matches("[A-Za-z0-9_.,:/@=+-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }

    /** Text in a table cell: no line break, no column break. */
    static String cell(String text) {
        return text.replace("\r", " ").replace("\n", " ").replace("|", "\\|");
    }

    static String kind(JsonNode doc) {
        if (doc.has("benchmark")) return "bench " + doc.path("benchmark").asText();
        if (doc.has("command")) return doc.path("command").asText();
        throw new IllegalArgumentException("not a --json document of a command: no 'benchmark' or 'command'");
    }

    private static String joined(List<JsonNode> runs, Function<JsonNode, String> cell) {
        return String.join(" / ", runs.stream().map(cell).toList());
    }

    private static String joinedRows(List<JsonNode> rows, Function<JsonNode, String> cell) {
        return joined(rows, cell);
    }

    /** A share (0..1) as a percentage with one decimal; "-" when the document has none. */
    static String percent(JsonNode share) {
        return share.isMissingNode() || share.isNull() ? "-" : number(100 * share.asDouble(), 1) + "%";
    }

    /** The first element of {@code array} that {@code which} holds for; a missing node when none does. */
    static JsonNode find(JsonNode array, java.util.function.Predicate<JsonNode> which) {
        for (JsonNode e : array) if (which.test(e)) return e;
        return MissingNode.getInstance();
    }

    static String number(double n, int decimals) {
        if (Double.isNaN(n) || Double.isInfinite(n)) return "-";
        return String.format(Locale.ROOT, "%,." + decimals + "f", n);
    }

    static String number(JsonNode n, int decimals) {
        if (n.isMissingNode() || n.isNull()) return "-";
        return String.format(Locale.ROOT, "%,." + decimals + "f", n.asDouble());
    }
}
