package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.infra.ops.report.GoodsReport;
import dev.seckill.infra.ops.report.ReportSource;
import dev.seckill.infra.ops.report.TextReport;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Given a recorded lottery sale (8 units, 40 buyers inside a 4 s window, one of them with five requestIds), when
 * {@code draw verify} reads its topics, then the draw checks out from the records alone; a replay drill draws the same
 * winners; and the same records with one SUCCESS added for a buyer the draw did not pick fail the check, naming it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the forgery goes last: it alters the recording
class DrawVerifyTest {
    static final long GOODS = 5301;
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
                "2",
                "stream.draw.allowance.ms",
                "300"));
        recording = Namespace.create(base, "draw-src-" + ID);
        try (Pipeline p = new Pipeline(recording).start();
                OutcomeLog log = new OutcomeLog(base, p.topics())) {
            // the window opens once the pipeline runs: a purchase that reaches the stream after the window's end plus
            // the allowance is decided after the draw, not in it
            Instant start = Instant.now();
            p.send(new OpenSale(
                    GOODS, 8, start, start.plusSeconds(3600), 1, "open-" + ID, false, Fairness.LOTTERY, 4_000));
            for (int user = 1; user <= 40; user++) {
                p.send(new Purchase("dv-" + user, GOODS, user, 1, start.plusMillis(user)));
                if (user == 20)
                    for (int i = 0; i < 5; i++) p.send(new Purchase("bot-" + i, GOODS, 99, 1, start.plusMillis(20)));
            }
            await().atMost(Duration.ofSeconds(90)).until(() -> log.size() >= 45);
            recorded = log.snapshot();
        }
    }

    @AfterAll
    static void cleanUp() {
        new Namespaces(base).clean(recording.name());
    }

    @Test
    @Order(1)
    void aRecordedLotterySaleChecksOutFromItsTopicsAlone() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = DrawCommand.verify(
                base, flags("--goods", "" + GOODS, "--namespace", recording.name()), new PrintStream(text));
        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains("41 buyers drawn, 8 winners by the draw, 8 SUCCESS")
                .contains("OK:");
        assertThat(exit).isZero();
        long won = recorded.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .count();
        assertThat(won).isEqualTo(8);
        assertThat(recorded.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS && o.userId() == 99))
                .hasSizeLessThanOrEqualTo(1);
    }

    @Test
    @Order(2)
    void aReplayDrillDrawsTheSameWinners() throws Exception {
        Namespace drill = Namespace.create(base, "drill-draw-" + ID);
        try {
            ReplayDrill.Result r = new ReplayDrill(recording.settings(), drill)
                    .run(
                            new ReplayDrill.Options(new CommandWindow("earliest", "latest"), Set.of(), null, null, 0),
                            n -> {},
                            n -> {});
            assertThat(r.differences()).isEmpty();
            DrawRecords again = DrawRecords.read(drill.settings(), GOODS);
            DrawCheck.Result check = DrawCheck.check(GOODS, again.commands(), again.ledger(), again.outcomes())
                    .get(0);
            assertThat(check.follows()).as(check.problems().toString()).isTrue();
            assertThat(check.recordedWinners()).containsExactlyInAnyOrderElementsOf(winners(recorded));
        } finally {
            new Namespaces(base).clean(drill.name());
        }
    }

    @Test
    @Order(3)
    void theReportShowsTheDrawAndWhoWonByArrival() throws Exception {
        List<GoodsReport> reports = new ReportSource(recording.settings()).read(GOODS, n -> {});
        GoodsReport.LotteryView lottery = reports.get(0).lottery();
        assertThat(lottery.buyers()).isEqualTo(41);
        assertThat(lottery.windowMs()).isEqualTo(4_000);
        assertThat(java.util.Arrays.stream(lottery.winnersByArrivalQuarter()).sum())
                .isEqualTo(8);
        assertThat(TextReport.render(reports)).contains("lottery    a 4,000 ms window drew 41 buyers");
    }

    @Test
    @Order(4)
    void oneSuccessAddedForABuyerTheDrawDidNotPickFailsTheCheckNamingIt() throws Exception {
        DrawRecords records = DrawRecords.read(recording.settings(), GOODS);
        DrawCheck.Result honest = DrawCheck.check(GOODS, records.commands(), records.ledger(), records.outcomes())
                .get(0);
        assertThat(honest.follows()).isTrue();
        long loser = honest.order().get(honest.order().size() - 1);
        Outcome lost =
                recorded.stream().filter(o -> o.userId() == loser).findFirst().orElseThrow();
        Outcome forged = Outcome.of(
                lost.requestId(),
                GOODS,
                loser,
                1,
                OutcomeKind.SUCCESS,
                null,
                0,
                lost.acceptedAt(),
                Instant.now(),
                lost.partition(),
                lost.offset());
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(recording.settings())) {
            producer.send(new ProducerRecord<>(
                            recording.settings().topicPrefix() + "outcome.success",
                            "" + GOODS,
                            OutcomeJson.encode(forged)))
                    .get(30, TimeUnit.SECONDS);
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = DrawCommand.verify(
                base, flags("--goods", "" + GOODS, "--namespace", recording.name()), new PrintStream(text));
        assertThat(exit).isEqualTo(1);
        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains("FAILED")
                .contains(lost.requestId() + ": SUCCESS recorded, the draw does not make it a winner");
    }

    static Flags flags(String... args) {
        return new Flags(args, 0, Set.of("goods", "namespace", "json"), Set.of("json"));
    }

    static List<String> winners(List<Outcome> outcomes) {
        return outcomes.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .map(Outcome::requestId)
                .toList();
    }
}
