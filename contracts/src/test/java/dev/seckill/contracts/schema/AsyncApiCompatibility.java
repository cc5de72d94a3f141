package dev.seckill.contracts.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The compatibility gate over the AsyncAPI document (docs/contracts.md, "Versioning"): what a change of
 * {@code asyncapi.yaml} breaks for the topics' producers and readers, against the released document. A break is a
 * channel or operation removed, a channel's address changed, an operation's action or channel changed, a message
 * removed from its channel or given another payload, and — by {@link SchemaCompatibility}'s rules — a break of a
 * message's headers or its Kafka key. A new channel, operation, message or optional header is never a break. The
 * payloads' schemas themselves are the JSON Schema gate's.
 */
final class AsyncApiCompatibility {
    private AsyncApiCompatibility() {}

    /** The breaks from the released document to the current one (both as parsed YAML). */
    static List<String> breaks(JsonNode released, JsonNode current) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        released.path("channels").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> c = it.next();
            String at = "channel " + c.getKey();
            JsonNode now = current.path("channels").get(c.getKey());
            if (now == null) {
                out.add(at + ": removed");
                continue;
            }
            if (!c.getValue().path("address").equals(now.path("address")))
                out.add(at + ": address changed (" + c.getValue().path("address") + " → " + now.path("address") + ")");
            messages(at, released, c.getValue(), current, now, out);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        released.path("operations").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> o = it.next();
            String at = "operation " + o.getKey();
            JsonNode now = current.path("operations").get(o.getKey());
            if (now == null) out.add(at + ": removed");
            else
                for (String field : List.of("action", "channel"))
                    if (!o.getValue().path(field).equals(now.path(field))) out.add(at + ": " + field + " changed");
        }
        return out;
    }

    private static void messages(
            String at,
            JsonNode releasedDoc,
            JsonNode released,
            JsonNode currentDoc,
            JsonNode current,
            List<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        released.path("messages").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> m = it.next();
            String where = at + " message " + m.getKey();
            JsonNode nowRef = current.path("messages").get(m.getKey());
            if (nowRef == null) {
                out.add(where + ": removed");
                continue;
            }
            JsonNode old = resolved(releasedDoc, m.getValue());
            JsonNode now = resolved(currentDoc, nowRef);
            if (!old.path("payload").equals(now.path("payload")))
                out.add(where + ": payload changed (" + old.path("payload") + " → " + now.path("payload") + ")");
            if (old.path("headers").has("schemaFormat")) { // a schema in a file of its own: the JSON Schema gate's
                if (!old.get("headers").equals(now.path("headers"))) out.add(where + ": headers' schema changed");
            } else if (old.has("headers"))
                out.addAll(SchemaCompatibility.breaks(where + " headers", old.get("headers"), now.path("headers")));
            JsonNode key = old.path("bindings").path("kafka").path("key");
            if (!key.isMissingNode())
                out.addAll(SchemaCompatibility.breaks(
                        where + " key", key, now.path("bindings").path("kafka").path("key")));
        }
    }

    /** {@code node} with every reference within the document ({@code #/...}) replaced by what it names, deeply. */
    static JsonNode resolved(JsonNode doc, JsonNode node) {
        if (node.isObject() && node.has("$ref") && node.get("$ref").asText().startsWith("#/"))
            return resolved(doc, doc.at(node.get("$ref").asText().substring(1)));
        if (!node.isContainerNode()) return node;
        JsonNode copy = node.deepCopy();
        if (copy.isObject()) {
            ObjectNode o = (ObjectNode) copy;
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                o.set(name, resolved(doc, node.get(name)));
            }
        } else
            for (int i = 0; i < copy.size(); i++)
                ((com.fasterxml.jackson.databind.node.ArrayNode) copy).set(i, resolved(doc, node.get(i)));
        return copy;
    }
}
