package dev.seckill.contracts.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compatibility gate: today's schemas against the released set, and each kind of break planted in a released
 * schema to show the gate fails on it — while an additive, optional change, a new member of an open enum and a new
 * version pass.
 */
class SchemaCompatibilityTest {
    static final Path RELEASED = Path.of("released-schemas", "v1");
    static final Path CURRENT = Path.of("src", "main", "resources", "dev", "seckill", "contracts", "schema");
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void todaysSchemasBreakNothingTheReleasedSetPromised() {
        assertThat(SchemaCompatibility.breaks(RELEASED, CURRENT)).isEmpty();
        assertThat(SchemaCompatibility.breaks(RELEASED.resolveSibling("v2"), CURRENT))
                .isEmpty();
    }

    @Test
    void aVersionKeptBesideItsSuccessor_isStillHeldToItsReleasedSchema(@TempDir Path dir) throws IOException {
        Path released = Files.createDirectories(dir.resolve("released").resolve("v1"));
        Path current = Files.createDirectories(dir.resolve("current"));
        ObjectNode v1 = (ObjectNode) released("ledger-entry.json");
        JSON.writeValue(released.resolve("ledger-entry.json").toFile(), v1);
        ObjectNode v2 = v1.deepCopy();
        v2.with("properties").putObject("v").put("const", 2);
        JSON.writeValue(current.resolve("ledger-entry.json").toFile(), v2);
        ObjectNode keptV1 = v1.deepCopy();
        keptV1.with("properties").remove("stockAfter");
        JSON.writeValue(current.resolve("ledger-entry.v1.json").toFile(), keptV1);
        assertThat(SchemaCompatibility.breaks(released, current))
                .as("v1 readers keep their contract while v2 is written beside it")
                .containsExactly("ledger-entry.json.stockAfter: removed");
    }

    static JsonNode released(String file) throws IOException {
        return JSON.readTree(RELEASED.resolve(file).toFile());
    }

    /** The breaks of {@code file} after {@code change} is applied to a copy of its released schema. */
    static java.util.List<String> breaksAfter(String file, Consumer<ObjectNode> change) throws IOException {
        JsonNode old = released(file);
        ObjectNode now = old.deepCopy();
        change.accept(now);
        return SchemaCompatibility.breaks(file, old, now);
    }

    static ObjectNode property(ObjectNode schema, String name) {
        return (ObjectNode) schema.with("properties").get(name);
    }

    @Test
    void aRemovedField_breaks() throws IOException {
        assertThat(breaksAfter("outcome.json", s -> s.with("properties").remove("stockAfter")))
                .containsExactly("outcome.json.stockAfter: removed");
    }

    @Test
    void aRetypedField_breaks() throws IOException {
        assertThat(breaksAfter("payment.json", s -> property(s, "paymentId").put("type", "integer")))
                .singleElement()
                .asString()
                .contains("payment.json.paymentId: retyped (type");
        assertThat(breaksAfter("outcome.json", s -> property(s, "decidedAt").put("$ref", "common.json#/$defs/id")))
                .singleElement()
                .asString()
                .contains("outcome.json.decidedAt: retyped ($ref");
    }

    @Test
    void aNewlyRequiredField_breaks() throws IOException {
        assertThat(breaksAfter("outcome.json", s -> ((ArrayNode) s.get("required")).add("reason")))
                .containsExactly("outcome.json: newly required field reason");
    }

    @Test
    void aNewValueOfAnEnumReadersMustInterpret_breaks_aRemovedOneToo() throws IOException {
        assertThat(breaksAfter(
                        "outcome.json", s -> ((ArrayNode) property(s, "outcome").get("enum")).add("PENDING")))
                .containsExactly("outcome.json.outcome: enum value PENDING added (readers must interpret it)");
        assertThat(breaksAfter(
                        "ledger-entry.json",
                        s -> ((ArrayNode) property(s, "type").get("enum")).remove(0)))
                .containsExactly("ledger-entry.json.type: enum value OPENED removed");
    }

    @Test
    void aChangedBound_breaks() throws IOException {
        assertThat(breaksAfter("common.json", s -> ((ObjectNode) s.with("$defs").get("id")).put("maxLength", 32)))
                .singleElement()
                .asString()
                .contains("common.json#id: maxLength changed");
    }

    @Test
    void aNewOptionalField_aNewMemberOfAnOpenEnum_andANewVersion_pass() throws IOException {
        assertThat(breaksAfter(
                        "outcome.json",
                        s -> s.with("properties").putObject("region").put("type", "string")))
                .as("readers ignore fields they do not know")
                .isEmpty();
        assertThat(breaksAfter(
                        "command.json", s -> ((ArrayNode) property(s, "type").get("enum")).add("transfer_in")))
                .as("a new command type is a new event")
                .isEmpty();
        assertThat(breaksAfter("outcome.json", s -> {
                    s.with("properties").putObject("v").put("const", 2);
                    s.with("properties").remove("stockAfter");
                }))
                .as("a new v is a new contract, the old one kept beside it")
                .isEmpty();
    }
}
