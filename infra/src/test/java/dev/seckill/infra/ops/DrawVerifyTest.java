package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.DrawBeacons;
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
import dev.seckill.stock.draw.beacon.LocalBeacon;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a recorded lottery sale (8 units, 40 buyers inside a 4 s window, one of them with five requestIds), when
 * {@code draw verify} reads its topics, then the draw checks out from the records alone; a replay drill draws the same
 * winners; a buyer finds their entry in the published digest; an exported copy checks out in both verifiers (ours and
 * the Node one written without our code) and each tampered copy fails in both, naming its fault; and the same records
 * with one SUCCESS added for a buyer the draw did not pick fail the check, naming it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the forgery goes last: it alters the recording
@Tag("light")
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
            DrawRecords again = DrawRecords.read(drill.settings(), GOODS, DrawBeacons.chains(drill.settings()))
                    .allowingCreateTime();
            DrawCheck.Result check = DrawCheck.check(again).get(0);
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
        DrawRecords records = DrawRecords.read(recording.settings(), GOODS, DrawBeacons.chains(recording.settings()));
        DrawCheck.Result honest = DrawCheck.check(records).get(0);
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

    @Test
    @Order(2)
    void aBuyerFindsTheirEntryInTheDigest_withItsInclusionProof() {
        DrawRecords records = DrawRecords.read(recording.settings(), GOODS, DrawBeacons.chains(recording.settings()));
        DrawCheck.Result draw = DrawCheck.check(records).get(0);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = DrawCommand.verify(
                base,
                flags("--goods", "" + GOODS, "--namespace", recording.name(), "--request", "dv-7"),
                new PrintStream(text));
        assertThat(exit).isZero();
        String out = text.toString(StandardCharsets.UTF_8);
        DrawCheck.Entry mine = draw.entries().stream()
                .filter(e -> e.purchase().requestId().equals("dv-7"))
                .findFirst()
                .orElseThrow();
        assertThat(out).contains("dv-7: entry " + mine.index() + " of 45").contains("ranked #");
        List<byte[]> proof = EntryTree.proof(draw.leaves(), mine.index());
        for (byte[] h : proof) assertThat(out).contains(Draw.hex(h));
        LedgerEntry drawn = records.ledger().stream()
                .filter(e -> e.type() == LedgerType.DRAWN)
                .findFirst()
                .orElseThrow();
        assertThat(EntryTree.verify(
                        mine.leaf(),
                        mine.index(),
                        45,
                        proof,
                        Draw.unhex(drawn.draw().digest())))
                .as("the proof leads to the digest the DRAWN entry published")
                .isTrue();
    }

    @Test
    @Order(2)
    void anExportedRecordingVerifies_andEachTamperedCopyFailsNamingItsFault_inBothVerifiers(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("sale.json");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        assertThat(DrawCommand.export(
                        base,
                        exportFlags("--goods", "" + GOODS, "--namespace", recording.name(), "--out", file.toString()),
                        new PrintStream(text)))
                .isZero();
        assertThat(verifyFile(file).exit()).isZero();
        assertThat(SecondVerifier.run(file).exit())
                .as(SecondVerifier.run(file).output())
                .isZero();

        RecordedSaleFile sale = RecordedSaleFile.read(file);
        LocalBeacon beacon = DrawBeacons.inProcess(base);
        Map<String, RecordedSaleFile> tampered = new LinkedHashMap<>();
        tampered.put("is not the published", sale.copy().withDrawn(d -> d.put("digest", "00".repeat(32))));
        tampered.put(
                "signature does not verify",
                sale.copy()
                        .withDrawn(d -> d.put(
                                "signature",
                                Draw.hex(beacon.sign(d.get("beaconRound").asLong() + 1)
                                        .signature()))));
        tampered.put("before the cutoff", sale.copy().withDrawnEntry(e -> e.put("at", "2000-01-01T00:00:00Z")));
        tampered.put("no DRAWN entry", sale.copy().withoutDrawn().withLaterCommand(GOODS, Duration.ofMinutes(5)));
        tampered.put("left out of the draw", sale.copy().leavingOutTheLastEntry());
        for (Map.Entry<String, RecordedSaleFile> t : tampered.entrySet()) {
            Path copy = dir.resolve("tampered-" + t.getKey().replace(' ', '-') + ".json");
            t.getValue().write(copy);
            Verdict ours = verifyFile(copy);
            assertThat(ours.exit()).as(t.getKey() + ": " + ours.output()).isEqualTo(1);
            assertThat(ours.output()).as(t.getKey()).contains(t.getKey());
            Verdict theirs = SecondVerifier.run(copy);
            assertThat(theirs.exit()).as(t.getKey() + ": " + theirs.output()).isEqualTo(1);
            assertThat(theirs.output()).as(t.getKey()).contains("FAILED");
        }
    }

    record Verdict(int exit, String output) {}

    static Verdict verifyFile(Path file) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = DrawCommand.verify(base, flags("--file", file.toString()), new PrintStream(text));
        return new Verdict(exit, text.toString(StandardCharsets.UTF_8));
    }

    static Flags flags(String... args) {
        return new Flags(
                args,
                0,
                Set.of("goods", "namespace", "json", "file", "request", "allow-create-time"),
                Set.of("json", "allow-create-time"));
    }

    static Flags exportFlags(String... args) {
        return new Flags(args, 0, Set.of("goods", "namespace", "out"), Set.of());
    }

    static List<String> winners(List<Outcome> outcomes) {
        return outcomes.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .map(Outcome::requestId)
                .toList();
    }
}
