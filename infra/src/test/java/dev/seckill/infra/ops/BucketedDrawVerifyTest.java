package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.infra.ops.report.GoodsReport;
import dev.seckill.infra.ops.report.ReportSource;
import dev.seckill.infra.ops.report.TextReport;
import dev.seckill.infra.ops.sql.SaleTables;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lottery of a goods split into 3 buckets through the real pipeline (a 4-partition commands topic, a local beacon):
 * one draw at the goods' home ranks the whole window, the units go out from home in the draw's order to the buyers'
 * buckets, and {@code draw verify} — ours, and the second verifier written without our code — checks the winners from
 * the topics alone; a replay drill draws the same winners.
 */
@Tag("light")
class BucketedDrawVerifyTest {
    static final long GOODS = 5_407;

    /** A pipeline on the test broker: 4 partitions (room for 3 buckets), a short draw allowance, and {@code more}. */
    static Settings pipeline(Map<String, String> more) {
        Map<String, String> all = new java.util.HashMap<>(more);
        all.put(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap());
        all.put("gateway.port", "0");
        all.put("gateway.metrics.port", "0");
        all.put("topic.partitions", "4");
        all.put("stream.draw.allowance.ms", "300");
        return Settings.with(all);
    }

    @Test
    void aLotteryOfThreeBucketsDrawsOnceAndVerifies(@TempDir Path dir) throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 6);
        Settings base = pipeline(Map.of());
        Namespace recording = Namespace.create(base, "draw-buckets-" + id);
        Namespace drill = Namespace.create(base, "drill-draw-buckets-" + id);
        try {
            // Given a lottery of 12 units in 3 buckets, a 4 s window, 60 buyers and one of them with five requestIds
            List<Outcome> recorded;
            try (Pipeline p = new Pipeline(recording).start();
                    OutcomeLog log = new OutcomeLog(base, p.topics())) {
                Instant start = Instant.now();
                p.send(new OpenSale(
                        GOODS, 12, start, start.plusSeconds(3600), 1, "open-" + id, false, Fairness.LOTTERY, 4_000, 3));
                for (int user = 1; user <= 60; user++) {
                    p.send(new Purchase("bd-" + user, GOODS, user, 1, start.plusMillis(user)));
                    if (user == 30)
                        for (int i = 0; i < 5; i++)
                            p.send(new Purchase("bot-" + i, GOODS, 999, 1, start.plusMillis(30)));
                }
                // When the window closes and the draw runs
                await().atMost(Duration.ofSeconds(90)).until(() -> log.size() >= 65);
                recorded = log.snapshot();
            }
            // Then every unit is sold, once, to the draw's first buyers, and the winners sit in more than one bucket
            List<Outcome> won = recorded.stream()
                    .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                    .toList();
            assertThat(won).hasSize(12);
            assertThat(won.stream().map(Outcome::userId).collect(Collectors.toSet()))
                    .hasSize(12);
            assertThat(won.stream().map(Outcome::partition).collect(Collectors.toSet()))
                    .as("the winners' buckets' partitions")
                    .hasSizeGreaterThan(1);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            int exit = DrawCommand.verify(
                    base,
                    DrawVerifyTest.flags("--goods", "" + GOODS, "--namespace", recording.name()),
                    new PrintStream(text));
            assertThat(text.toString(StandardCharsets.UTF_8))
                    .contains("61 buyers drawn, 12 winners by the draw, 12 SUCCESS")
                    .contains("OK:");
            assertThat(exit).isZero();
            DrawRecords records =
                    DrawRecords.read(recording.settings(), GOODS, DrawBeacons.chains(recording.settings()));
            assertThat(records.ledger().stream().filter(e -> e.type() == LedgerType.TRANSFERRED_OUT))
                    .as("units handed out from home")
                    .isNotEmpty();
            assertThat(records.ledger().stream().filter(e -> e.type() == LedgerType.DRAWN))
                    .as("one draw for the goods")
                    .hasSize(1);
            Path file = dir.resolve("buckets.json");
            assertThat(DrawCommand.export(
                            base,
                            DrawVerifyTest.exportFlags(
                                    "--goods", "" + GOODS, "--namespace", recording.name(), "--out", file.toString()),
                            new PrintStream(new ByteArrayOutputStream())))
                    .isZero();
            var second = SecondVerifier.run(file);
            assertThat(second.exit()).as(second.output()).isZero();
            // and a replay drill of the recording draws the same winners
            ReplayDrill.Result r = new ReplayDrill(recording.settings(), drill)
                    .run(
                            new ReplayDrill.Options(new CommandWindow("earliest", "latest"), Set.of(), null, null, 0),
                            n -> {},
                            n -> {});
            assertThat(r.differences()).isEmpty();
            DrawCheck.Result again = DrawCheck.check(
                            DrawRecords.read(drill.settings(), GOODS, DrawBeacons.chains(drill.settings()))
                                    .allowingCreateTime())
                    .get(0);
            assertThat(again.follows()).as(again.problems().toString()).isTrue();
            assertThat(again.recordedWinners()).containsExactlyInAnyOrderElementsOf(DrawVerifyTest.winners(recorded));
            assertThat(records.ledger().stream()
                            .mapToLong(LedgerEntry::stockDelta)
                            .sum())
                    .as("the ledger's units left")
                    .isZero();
            // and the report and the tables show the goods and its buckets: sold out once, 12 units over 3 buckets
            GoodsReport report =
                    new ReportSource(recording.settings()).read(GOODS, n -> {}).get(0);
            assertThat(report.buckets()).hasSize(3);
            assertThat(report.buckets().stream()
                            .mapToLong(GoodsReport.Bucket::sold)
                            .sum())
                    .isEqualTo(12);
            assertThat(report.soldOutAt()).isNotNull();
            assertThat(report.stockOverTime()
                            .get(report.stockOverTime().size() - 1)
                            .stock())
                    .isZero();
            assertThat(TextReport.render(List.of(report))).contains("bucket 2 ");
            try (SaleTables tables = SaleTables.load(recording.settings(), new SaleTables.Progress() {
                        @Override
                        public void started(long records) {}

                        @Override
                        public void read(long records) {}
                    });
                    var st = tables.connection().createStatement();
                    var rs = st.executeQuery("SELECT count(DISTINCT bucket), sum(-stock_delta) FROM ledger"
                            + " WHERE goods_id = " + GOODS + " AND type = 'DEDUCTED' AND buckets = 3")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(2)).as("units sold over the buckets").isEqualTo(12);
                assertThat(rs.getLong(1))
                        .as("buckets that sold")
                        .isEqualTo(report.buckets().stream()
                                .filter(b -> b.sold() > 0)
                                .count());
            }
        } finally {
            new Namespaces(base).clean(recording.name());
            new Namespaces(base).clean(drill.name());
        }
    }

    @Test
    void theCommandsHeldWithTheWindowThatAreNotEntriesAreDecidedFirstComeAfterIt() throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 6);
        long goods = GOODS + 1;
        Settings base = pipeline(Map.of("stream.bucket.reborrow.ms", "60000"));
        Namespace recording = Namespace.create(base, "draw-buckets-rest-" + id);
        try (Pipeline p = new Pipeline(recording).start();
                OutcomeLog log = new OutcomeLog(base, p.topics())) {
            // Given a lottery of 20 units in 3 buckets, and 16 buyers in its 3 s window: every one of them wins
            Instant start = Instant.now();
            p.send(new OpenSale(
                    goods, 20, start, start.plusSeconds(3600), 1, "open-" + id, false, Fairness.LOTTERY, 3_000, 3));
            for (int user = 1; user <= 16; user++)
                p.send(new Purchase("in-" + user, goods, user, 1, start.plusMillis(user)));
            // When, still in the window, purchases accepted after it come: each winner's second, and 5 new buyers —
            // held with the window, not its entries, so decided after it, first-come
            Instant after = start.plusMillis(3_500);
            for (int user = 1; user <= 16; user++) p.send(new Purchase("again-" + user, goods, user, 1, after));
            for (int user = 101; user <= 105; user++) p.send(new Purchase("after-" + user, goods, user, 1, after));
            await().atMost(Duration.ofSeconds(90)).until(() -> log.size() >= 37);
            List<Outcome> recorded = log.snapshot();
            // Then every winner's second is DUPLICATE and moves no unit, and the 4 units left go to 4 of the new
            // buyers: all 20 sold (a unit sent with a second purchase would sit unsold in its buyer's bucket)
            Map<String, OutcomeKind> by =
                    recorded.stream().collect(Collectors.toMap(Outcome::requestId, Outcome::outcome, (a, b) -> a));
            for (int user = 1; user <= 16; user++)
                assertThat(by.get("again-" + user)).as("again-" + user).isEqualTo(OutcomeKind.DUPLICATE);
            assertThat(by.values().stream().filter(k -> k == OutcomeKind.SUCCESS))
                    .as("units sold: " + by)
                    .hasSize(20);
            assertThat(by.entrySet().stream()
                            .filter(e -> e.getKey().startsWith("after-") && e.getValue() == OutcomeKind.SOLD_OUT))
                    .hasSize(1);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            int exit = DrawCommand.verify(
                    base,
                    DrawVerifyTest.flags("--goods", "" + goods, "--namespace", recording.name()),
                    new PrintStream(text));
            assertThat(text.toString(StandardCharsets.UTF_8)).contains("16 winners by the draw, 16 SUCCESS");
            assertThat(exit).as(text.toString(StandardCharsets.UTF_8)).isZero();
        } finally {
            new Namespaces(base).clean(recording.name());
        }
    }
}
