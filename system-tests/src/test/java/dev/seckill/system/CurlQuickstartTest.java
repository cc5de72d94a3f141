package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.OpenApi31;
import dev.seckill.contracts.Json;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * README's "One purchase with curl", run as written — the real {@code ./seckill token} and the real {@code curl} —
 * against a real pipeline: the lines from {@code TOKEN=} on, with the gateway's address this pipeline's. The sale is
 * opened by the test in the pipeline's own namespace (the README's {@code sale open} line opens it in the live one).
 */
class CurlQuickstartTest {
    static final Path ROOT = Path.of(System.getenv().getOrDefault("SECKILL_ROOT", ".."))
            .toAbsolutePath()
            .normalize();

    static Pipeline pipeline;

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(2);
        pipeline = new Pipeline(TestNamespaces.create(
                        settings, "curl-" + UUID.randomUUID().toString().substring(0, 8)))
                .start();
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void theReadmesCurlQuickstartBuysAndReadsTheAnswerBack() throws Exception {
        pipeline.openSale(42, 100, Duration.ofHours(1), 1);
        String script = "set -euo pipefail\n"
                + String.join("\n", quickstartFromToken())
                        .replace("http://127.0.0.1:8080", "http://127.0.0.1:" + pipeline.gatewayPort());

        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile());
        Namespace ns = pipeline.namespace();
        pb.environment().put(GatewaySettings.AUTH_SECRET.env(), ns.settings().get(GatewaySettings.AUTH_SECRET));
        pb.environment().put("SECKILL_NO_BUILD", "1");
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
                .as("the quickstart finished")
                .isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.exitValue())
                .as("exit; stderr: " + err + "; stdout: " + out)
                .isZero();
        List<JsonNode> answers = new ArrayList<>();
        Json.MAPPER.readerFor(JsonNode.class).<JsonNode>readValues(out).forEachRemaining(answers::add);
        assertThat(answers)
                .as("two answers: the purchase's, then the read's; stdout: " + out)
                .hasSize(2);
        for (JsonNode a : answers) {
            assertThat(a.get("requestId").asText()).isEqualTo("my-first-1");
            assertThat(a.get("status").asText()).as(a.toString()).isEqualTo("SUCCESS");
        }
        // each answer is one the gateway's OpenAPI document describes: the purchase decided within its wait, its read
        assertThat(documented("/paths/~1api~1purchases/post/responses/200", answers.get(0)))
                .isEmpty();
        assertThat(documented("/paths/~1api~1purchases~1{requestId}/get/responses/200", answers.get(1)))
                .isEmpty();
        assertThat(documented(
                        "/paths/~1api~1purchases~1{requestId}/get/responses/200",
                        Json.MAPPER.readTree("{\"status\":\"SOLD\"}")))
                .as("the check can fail")
                .isNotEmpty();
        assertThat(pipeline.orderIdOf("my-first-1")).as("the order row").isNotNull();
    }

    /** What the gateway's OpenAPI document finds wrong with {@code body} as the JSON answer at {@code response}. */
    static List<com.networknt.schema.Error> documented(String response, JsonNode body) throws Exception {
        String id = "https://seckill.dev/gateway/openapi.yaml";
        String text;
        try (var in = CurlQuickstartTest.class.getResourceAsStream("/dev/seckill/gateway/openapi.yaml")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8); // the document the gateway's jar serves
        }
        SchemaRegistry schemas =
                SchemaRegistry.withDefaultDialect(OpenApi31.getInstance(), b -> b.schemas(Map.of(id, text)));
        return schemas.getSchema(SchemaLocation.of(id + "#" + response + "/content/application~1json/schema"))
                .validate(body.toString(), InputFormat.JSON);
    }

    /** The README block's shell lines from {@code TOKEN=} on, comments left out. */
    static List<String> quickstartFromToken() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int from = readme.indexOf("<!-- curl-quickstart");
        int to = readme.indexOf("<!-- /curl-quickstart -->");
        assertThat(from).as("README has the curl quickstart block").isNotNegative();
        List<String> lines = new ArrayList<>();
        boolean on = false;
        for (String line : readme.substring(from, to).split("\n")) {
            if (line.startsWith("TOKEN=")) on = true;
            if (on && !line.startsWith("#") && !line.startsWith("```")) lines.add(line);
        }
        assertThat(lines).as("the lines from TOKEN= on").hasSizeGreaterThanOrEqualTo(3);
        return lines;
    }
}
