package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code ./seckill load} against a real pipeline: through Kafka with a fifth of the requests re-sent (every requestId is
 * decided exactly once), through the gateway's HTTP API with tokens it mints, and to a gateway on an identity
 * provider's JWKS with tokens signed by the provider's key ({@code --signing-key}).
 */
class LoadCommandTest {
    static String run(Settings settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Seckill.run(settings, args, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        return text;
    }

    /** A test pipeline's settings: the tests' broker, two partitions, ports 0, and {@code auth}'s token settings. */
    static Settings pipelineSettings(Map<String, String> auth) {
        Map<String, String> all = new HashMap<>(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2"));
        all.putAll(auth);
        return Settings.with(all);
    }

    @Test
    void aNamespaceWithoutItsCommandsTopicIsOneLineAndExit2_notAWaitOfAMinutePerPurchase() {
        // Given a namespace on the tests' broker whose topics were never made
        Settings none = pipelineSettings(Map.of())
                .and(Map.of(
                        "topic.prefix",
                        "load-none-" + UUID.randomUUID().toString().substring(0, 6) + "."));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        long started = System.nanoTime();
        int exit;
        try {
            // When an upstream's load is sent there through Kafka
            exit = Seckill.run(
                    none,
                    new String[] {"load", "--via", "kafka", "--requests", "5", "--rate", "10", "--json"},
                    new PrintStream(out, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
        // Then it says so at once, in one line naming the topic, and sends nothing
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).strip())
                .startsWith("seckill: no topic " + none.topicPrefix() + "commands at ")
                .doesNotContain("\n");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void anUpstreamsLoadViaKafkaIsDecidedOncePerRequestId_andViaHttpItIsAccepted() throws Exception {
        Settings base =
                pipelineSettings(Map.of("gateway.auth.secret", "load-test-" + UUID.randomUUID() + UUID.randomUUID()));
        Namespace ns =
                Namespace.create(base, "load-" + UUID.randomUUID().toString().substring(0, 6));
        try (Pipeline p = new Pipeline(ns).start();
                OutcomeLog log = new OutcomeLog(base, p.topics())) {
            p.openSale(5401, 100, Duration.ofHours(1), 1);
            String kafka = run(
                    ns.settings(),
                    "load",
                    "--via",
                    "kafka",
                    "--requests",
                    "300",
                    "--rate",
                    "2000",
                    "--goods",
                    "5401",
                    "--users",
                    "200",
                    "--repeat-ratio",
                    "0.2");
            Matcher m = Pattern.compile("sent 300 purchases \\(([0-9,]+) distinct requestIds, ([0-9,]+) re-sent\\)")
                    .matcher(kafka);
            assertThat(m.find()).as(kafka).isTrue();
            int distinct = Integer.parseInt(m.group(1).replace(",", ""));
            assertThat(Integer.parseInt(m.group(2).replace(",", "")))
                    .as("a fifth re-sent, roughly")
                    .isBetween(30, 100);
            assertThat(kafka).contains("answers    {acked=300}");
            await().atMost(Duration.ofSeconds(90)).until(() -> log.size() >= distinct);
            Map<String, Long> perId =
                    log.snapshot().stream().collect(Collectors.groupingBy(Outcome::requestId, Collectors.counting()));
            assertThat(perId).hasSize(distinct);
            assertThat(perId.values()).as("each requestId decided exactly once").containsOnly(1L);
            assertThat(log.snapshot().stream()
                            .filter(o -> o.outcome().name().equals("SUCCESS"))
                            .count())
                    .isEqualTo(100);

            // goods 5401 is sold out now (the gateway would answer 200 SOLD_OUT at the door): a sale of its own
            p.openSale(5402, 1000, Duration.ofHours(1), 1);
            String http = run(
                    ns.settings(),
                    "load",
                    "--via",
                    "http",
                    "--url",
                    "http://127.0.0.1:" + p.gatewayPort(),
                    "--requests",
                    "50",
                    "--rate",
                    "500",
                    "--goods",
                    "5402",
                    "--users",
                    "50");
            assertThat(http)
                    .contains("answers    {202=50}")
                    .doesNotContain("failed")
                    .doesNotContain("401="); // no 401 among the answers (the namespace's random name may hold "401")
            // and --json: the same figures as one document on stdout
            JsonNode doc = Json.MAPPER.readTree(run(
                    ns.settings(),
                    "load",
                    "--via",
                    "kafka",
                    "--requests",
                    "20",
                    "--rate",
                    "2000",
                    "--goods",
                    "5403",
                    "--users",
                    "200",
                    "--json"));
            assertThat(doc.path("sent").asInt()).as(doc.toString()).isEqualTo(20);
            assertThat(doc.path("answers").path("acked").asInt())
                    .as(doc.toString())
                    .isEqualTo(20);
            assertThat(doc.path("latencyMs").path("p99").asDouble()).isPositive();
        } finally {
            new Namespaces(base).clean(ns.name());
        }
    }

    @Test
    void viaHttpToAGatewayOnAJwks_tokensSignedWithTheProvidersKeyAreAllAccepted() throws Exception {
        ECKey idp = new ECKeyGenerator(Curve.P_256)
                .keyID("idp-" + UUID.randomUUID())
                .generate();
        Path dir = Files.createTempDirectory("load-jwks-");
        Path jwks = Files.writeString(dir.resolve("jwks.json"), new JWKSet(idp.toPublicJWK()).toString());
        Path signingKey = Files.writeString(dir.resolve("idp.json"), new JWKSet(idp).toString(false));
        Settings base = pipelineSettings(Map.of(
                "gateway.auth.jwks",
                jwks.toString(),
                "gateway.auth.issuer",
                "https://idp.example",
                "gateway.auth.audience",
                "seckill"));
        Namespace ns = Namespace.create(
                base, "loadjwks-" + UUID.randomUUID().toString().substring(0, 6));
        try (Pipeline p = new Pipeline(ns).start()) {
            p.openSale(5403, 1000, Duration.ofHours(1), 1);
            String url = "http://127.0.0.1:" + p.gatewayPort();
            // the HS256 tokens of the pipeline's secret are not the provider's: the gateway on its JWKS refuses them
            String hs256 = run(
                    p.settingsOf("upstream"),
                    "load",
                    "--via",
                    "http",
                    "--url",
                    url,
                    "--requests",
                    "5",
                    "--goods",
                    "5403");
            assertThat(hs256).contains("answers    {401=5}");
            // iss and aud from the gateway's settings, the key's kid: every buyer accepted
            String signed = run(
                    ns.settings(),
                    "load",
                    "--via",
                    "http",
                    "--url",
                    url,
                    "--signing-key",
                    signingKey.toString(),
                    "--requests",
                    "50",
                    "--rate",
                    "500",
                    "--goods",
                    "5403",
                    "--users",
                    "50");
            assertThat(signed)
                    .contains("answers    {202=50}")
                    .doesNotContain("failed")
                    .doesNotContain("401="); // no 401 among the answers (the namespace's random name may hold "401")
        } finally {
            new Namespaces(base).clean(ns.name());
            Files.delete(jwks);
            Files.delete(signingKey);
            Files.delete(dir);
        }
    }
}
