package dev.seckill.infra.harness;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;

/**
 * The {@code --json} output of the reporting commands: one document on stdout, written by the contracts' mapper
 * (ISO-8601 instants) and indented; the narration a command prints while it works goes to stderr then.
 */
public final class JsonOutput {
    private JsonOutput() {}

    /** A new document to fill. */
    public static ObjectNode object() {
        return Json.MAPPER.createObjectNode();
    }

    /** Any value (a record, a list) as a node, by the contracts' mapper. */
    public static JsonNode tree(Object value) {
        return Json.MAPPER.valueToTree(value);
    }

    public static String render(JsonNode document) {
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the output as JSON", e);
        }
    }
}
