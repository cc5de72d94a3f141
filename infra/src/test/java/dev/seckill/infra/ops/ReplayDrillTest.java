package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.stack.KafkaFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * Given a recorded sale (10 units, 20 buyers one after the other, a repeat buyer), when its commands are replayed in a
 * drill namespace, then an unchanged drill decides every request as recorded, a drill with the stock halved differs in
 * exactly the five requests that took units 6 to 10, and cleaning a drill leaves nothing of it and touches nothing else.
 */
@Tag("light")
class ReplayDrillTest {
    static final long GOODS = 5201;
    static final String ID = UUID.randomUUID().toString().substring(0, 6);
    static Settings base;
    static Namespace recording;
    static List<Outcome> recorded;

    @BeforeAll
    static void record() {
        base = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2"));
        recording = Namespace.create(base, "replay-src-" + ID);
        try (Pipeline p = new Pipeline(recording).start();
                OutcomeLog log = new OutcomeLog(base, p.topics())) {
            p.openSale(GOODS, 10, Duration.ofHours(1), 1);
            for (int user = 1; user <= 20; user++) p.send(new Purchase("rp-" + user, GOODS, user, 1, Instant.now()));
            p.send(new Purchase("rp-1-again", GOODS, 1, 1, Instant.now()));
            await().atMost(Duration.ofSeconds(90)).until(() -> log.size() >= 21);
            recorded = log.snapshot();
        }
    }

    @AfterAll
    static void cleanUp() {
        new Namespaces(base).clean(recording.name());
    }

    static ReplayDrill.Options everything(Long stock) {
        return new ReplayDrill.Options(new CommandWindow("earliest", "latest"), Set.of(), stock, null, 0);
    }

    @Test
    void anUnchangedDrillDecidesEveryRequestAsRecorded_andCleaningItLeavesNothingOfItAndTouchesNothingElse()
            throws Exception {
        Namespace drill = Namespace.create(base, "drill-same-" + ID);
        ReplayDrill.Result r = new ReplayDrill(recording.settings(), drill).run(everything(null), n -> {}, n -> {});
        assertThat(r.purchases()).isEqualTo(21);
        assertThat(r.differences())
                .as("invariant 6: the same log gives the same outcomes")
                .isEmpty();
        assertThat(r.identical()).isEqualTo(21);
        assertThat(r.copied()).as("the open and the purchases").isEqualTo(22);
        assertThat(r.goodsWithoutOpen()).isEmpty();

        Namespaces namespaces = new Namespaces(base);
        int recordingTopics = namespaces.list().stream()
                .filter(e -> e.name().equals(recording.name()))
                .findFirst()
                .orElseThrow()
                .topics();
        namespaces.clean(drill.name());
        assertThat(namespaces.list()).noneMatch(e -> e.name().equals(drill.name()));
        assertThat(namespaces.list())
                .filteredOn(e -> e.name().equals(recording.name()))
                .singleElement()
                .satisfies(e -> assertThat(e.topics()).isEqualTo(recordingTopics))
                .satisfies(e -> assertThat(e.database()).isTrue());
        try (UnifiedJedis redis = RedisConnections.open(base)) {
            assertThat(redis.exists(drill.settings().redisPrefix() + "stock:{" + GOODS + "}"))
                    .isFalse();
            assertThat(redis.get(recording.settings().redisPrefix() + "stock:{" + GOODS + "}"))
                    .as("the recording's own keys")
                    .isEqualTo("0");
        }
    }

    @Test
    void aDrillWithTheStockHalvedDiffersInExactlyTheRequestsThatTookUnitsSixToTen() throws Exception {
        Namespace drill = Namespace.create(base, "drill-half-" + ID);
        try {
            ReplayDrill.Result r = new ReplayDrill(recording.settings(), drill).run(everything(5L), n -> {}, n -> {});
            List<String> lateSuccesses = recorded.stream()
                    .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                    .sorted(Comparator.comparingLong(Outcome::offset))
                    .skip(5)
                    .map(Outcome::requestId)
                    .toList();
            assertThat(lateSuccesses).hasSize(5);
            assertThat(r.differences())
                    .extracting(ReplayDrill.Difference::requestId)
                    .containsExactlyInAnyOrderElementsOf(lateSuccesses);
            assertThat(r.differences()).allSatisfy(d -> {
                assertThat(d.recorded().outcome()).isEqualTo(OutcomeKind.SUCCESS);
                assertThat(d.drill().outcome()).isEqualTo(OutcomeKind.SOLD_OUT);
                assertThat(d.why()).startsWith("SUCCESS -> SOLD_OUT (the drill's sale has stock 5");
            });
            assertThat(r.identical() + r.shifted()).isEqualTo(21 - 5);

            // the drill's report shows the same five differences beside the recording
            java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
            java.nio.file.Path page = java.nio.file.Files.createTempFile("drill-report", ".html");
            int code = ReportCommand.run(
                    base,
                    dev.seckill.infra.cli.CliCommands.REPORT.parse(new String[] {
                        "report", "--namespace", drill.name(), "--against", recording.name(), "--html", page.toString()
                    }),
                    new java.io.PrintStream(text, true));
            assertThat(code).isZero();
            assertThat(text.toString())
                    .contains("drill vs recorded (" + recording.settings().topicPrefix() + "*): ")
                    .contains(
                            "11 identical, 5 shifted (same outcome, other stock after), 5 differing, 0 not in the recording");
            for (String id : lateSuccesses)
                assertThat(text.toString()).containsPattern("goods " + GOODS + " " + id + " +SUCCESS .*-> SOLD_OUT");
            assertThat(java.nio.file.Files.readString(page))
                    .contains("The drill against the recording")
                    .contains(lateSuccesses.get(0));
            java.nio.file.Files.delete(page);
        } finally {
            new Namespaces(base).clean(drill.name());
        }
    }
}
