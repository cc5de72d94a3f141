package dev.seckill.contracts.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The AsyncAPI document against the released one ({@code released-schemas/asyncapi.yaml}): today's breaks nothing it
 * promised; each kind of break planted in a copy fails the gate; an additive change passes.
 */
@Tag("fast")
class AsyncApiCompatibilityTest {
    static final Path RELEASED = Path.of("released-schemas", "asyncapi.yaml");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static JsonNode released() throws IOException {
        return YAML.readTree(RELEASED.toFile());
    }

    static List<String> breaksAfter(Consumer<ObjectNode> change) throws IOException {
        JsonNode old = released();
        ObjectNode now = old.deepCopy();
        change.accept(now);
        return AsyncApiCompatibility.breaks(old, now);
    }

    @Test
    void todaysDocumentBreaksNothingTheReleasedOnePromised() throws IOException {
        assertThat(AsyncApiCompatibility.breaks(released(), YAML.readTree(AsyncApiTest.DOCUMENT.toFile())))
                .isEmpty();
    }

    @Test
    void aRemovedChannel_aMovedAddress_aRemovedOperation_break() throws IOException {
        assertThat(breaksAfter(d -> d.with("channels").remove("outcomeRejected")))
                .containsExactly("channel outcomeRejected: removed");
        assertThat(breaksAfter(d -> d.with("channels").with("ledger").put("address", "{prefix}stock-ledger")))
                .singleElement()
                .asString()
                .startsWith("channel ledger: address changed");
        String operation = released().path("operations").fieldNames().next();
        assertThat(breaksAfter(d -> d.with("operations").remove(operation)))
                .containsExactly("operation " + operation + ": removed");
        assertThat(breaksAfter(d -> d.with("operations").with(operation).put("action", "flip")))
                .containsExactly("operation " + operation + ": action changed");
    }

    @Test
    void aMessageWithAnotherPayload_aRetypedKey_aNewRequiredHeader_break() throws IOException {
        assertThat(breaksAfter(d -> ((ObjectNode) d.at("/components/messages/payment/payload/schema"))
                        .put("$ref", "schema/command.json")))
                .anySatisfy(b -> assertThat(b).contains("message payment: payload changed"));
        assertThat(breaksAfter(d ->
                        ((ObjectNode) d.at("/components/messages/command/bindings/kafka/key")).put("type", "integer")))
                .anySatisfy(b -> assertThat(b).contains("message command key: retyped"));
        assertThat(breaksAfter(d -> {
                    ObjectNode headers = (ObjectNode) d.at("/components/schemas/traceHeaders");
                    ArrayNode required = headers.withArray("required");
                    required.add(headers.path("properties").fieldNames().next());
                }))
                .anySatisfy(b -> assertThat(b).contains("headers: newly required field"));
    }

    @Test
    void aNewChannelAndAnOptionalHeader_breakNothing() throws IOException {
        assertThat(breaksAfter(d -> {
                    ObjectNode channel = d.with("channels").putObject("auditTrail");
                    channel.put("address", "{prefix}audit");
                    ((ObjectNode) d.at("/components/schemas/traceHeaders").path("properties"))
                            .putObject("x-tenant")
                            .put("type", "string");
                }))
                .isEmpty();
    }
}
