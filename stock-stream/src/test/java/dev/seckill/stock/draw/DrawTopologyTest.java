package dev.seckill.stock.draw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stock.StockTopology;
import dev.seckill.stock.decision.StockScripts;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.draw.beacon.BeaconRound;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lottery sale under TopologyTestDriver, deciding against the real Redis: the window's purchases wait for the draw
 * and are then decided in its order (docs/contracts.md, "The draw").
 */
class DrawTopologyTest {
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
    static final long WINDOW_MS = 2_000;
    static final Duration ALLOWANCE = Duration.ofSeconds(1);
    static final long GOODS = 7001;
    static final long STOCK = 5;

    final Topics topics = new Topics("ttd.");
    TestRedis redis;
    SigningBeacon beacon;
    SimpleMeterRegistry metrics;

    @TempDir
    Path dir;

    TopologyTestDriver driver;
    TestInputTopic<String, byte[]> commands;
    TestOutputTopic<String, Outcome> success, soldOut, rejected, duplicate;
    TestOutputTopic<String, LedgerEntry> ledger;
    TestOutputTopic<String, byte[]> dlq;

    @BeforeEach
    void setUp() throws Exception {
        redis = new TestRedis();
        beacon = new SigningBeacon(dir.resolve("beacon.key"));
        start(DrawTerms.RELEASE_CHUNK);
    }

    /** The topology on a fresh driver, a drawn window passing on {@code releaseChunk} held commands per transaction. */
    void start(int releaseChunk) {
        metrics = new SimpleMeterRegistry();
        StreamsBuilder builder = new StreamsBuilder();
        StockTopology.build(
                builder,
                topics,
                () -> new StockScripts(redis.redis, redis.keys, metrics, 3, Duration.ofMillis(10)),
                Clock.systemUTC(),
                metrics,
                StockTopology.Settings.UNBATCHED
                        .batched(64, Duration.ofMillis(5))
                        .drawing(new DrawTerms(beacon, ALLOWANCE, Duration.ZERO, releaseChunk)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ttd-draw");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(builder.build(), props, START);
        commands = driver.createInputTopic(topics.commands(), new StringSerializer(), new ByteArraySerializer());
        success = out(topics.success());
        soldOut = out(topics.soldOut());
        rejected = out(topics.rejected());
        duplicate = out(topics.duplicate());
        ledger = driver.createOutputTopic(
                topics.ledger(), new StringDeserializer(), StockTopology.LEDGER_SERDE.deserializer());
        dlq = driver.createOutputTopic(topics.dlq(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The seed a DRAWN entry publishes, after checking it follows from its public parts: the round's signature verifies
     * under the beacon's key, and the seed is {@code Draw.seed} of the digest and the round's randomness.
     */
    byte[] seedOf(LedgerEntry drawn) {
        DrawFacts d = drawn.draw();
        BeaconRound round = new BeaconRound(d.beaconRound(), Draw.unhex(d.signature()));
        assertThat(round.verifies(beacon.chain())).isTrue();
        byte[] seed = Draw.seed(GOODS, Draw.unhex(d.digest()), round.randomness());
        assertThat(Draw.hex(seed)).isEqualTo(d.seed());
        return seed;
    }

    TestOutputTopic<String, Outcome> out(String topic) {
        return driver.createOutputTopic(topic, new StringDeserializer(), StockTopology.OUTCOME_SERDE.deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
        redis.close();
        beacon.close();
    }

    void send(long goods, byte[] value, Instant at, RecordHeaders headers) {
        commands.pipeInput(new TestRecord<>(Long.toString(goods), value, headers, at));
    }

    void openLottery() {
        OpenSale o = new OpenSale(
                GOODS, STOCK, START, START.plusSeconds(3600), 1, "open-lottery", false, Fairness.LOTTERY, WINDOW_MS);
        send(GOODS, CommandCodec.encode(o), START.minusSeconds(1), new RecordHeaders());
    }

    void buy(String rid, long user, long acceptedAfterStartMs) {
        Instant at = START.plusMillis(acceptedAfterStartMs);
        RecordHeaders h = new RecordHeaders();
        TraceHeaders.put(h, "trace-" + rid);
        send(GOODS, CommandCodec.encode(new Purchase(rid, GOODS, user, 1, at)), at, h);
    }

    /** Thirty buyers inside the window in arrival order 1..30, buyer 99 with four requestIds, one buyer after it. */
    List<Long> aCrowdArrives() {
        List<Long> arrival = new ArrayList<>();
        for (long u = 1; u <= 30; u++) {
            buy("r-" + u, u, 10 * u);
            arrival.add(u);
            if (u == 15) {
                for (int i = 0; i < 4; i++) buy("bot-" + i, 99, 150 + i);
                arrival.add(99L);
            }
        }
        buy("after-window", 500, WINDOW_MS + 100);
        return arrival;
    }

    @Test
    void givenALotterySale_whenTheWindowsPurchasesArrive_thenNothingIsDecidedUntilTheDraw() {
        openLottery();
        aCrowdArrives();

        assertThat(success.readValuesToList()).isEmpty();
        assertThat(soldOut.readValuesToList()).isEmpty();
        assertThat(rejected.readValuesToList()).isEmpty();
        List<LedgerEntry> entries = ledger.readValuesToList();
        assertThat(entries).extracting(LedgerEntry::type).containsExactly(LedgerType.OPENED);
        DrawFacts promised = entries.get(0).draw();
        assertThat(promised.cutoffAt()).isEqualTo(START.plusMillis(WINDOW_MS).plus(ALLOWANCE));
        assertThat(promised.beaconChain()).isEqualTo(beacon.chain().hash());
        assertThat(beacon.chain().timeOfMs(promised.beaconRound()))
                .as("the round the draw takes is published after the cutoff")
                .isGreaterThan(promised.cutoffAt().toEpochMilli());
        assertThat(promised.seed()).as("no seed before the draw").isNull();

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS)); // the window closed, the allowance has not passed
        assertThat(success.readValuesToList()).isEmpty();
    }

    @Test
    void givenTheWindowClosed_whenTheWallClockPassesTheAllowance_thenTheDrawsFirstBuyersWinOneTicketEach() {
        openLottery();
        List<Long> arrival = aCrowdArrives();
        ledger.readValuesToList();

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));

        List<LedgerEntry> entries = ledger.readValuesToList();
        assertThat(entries.get(0).type()).isEqualTo(LedgerType.DRAWN);
        byte[] seed = seedOf(entries.get(0));
        List<Long> order = Draw.order(seed, GOODS, arrival);
        assertThat(entries.get(0).draw().buyers()).isEqualTo(31);
        assertThat(entries.get(0).draw().entries())
                .as("the 34 purchases inside the window")
                .isEqualTo(34);
        assertThat(entries.get(0).draw().throughOffset())
                .isEqualTo(35L); // the open at 0, then 35 purchases held: 1..35
        assertThat(entries.subList(1, entries.size()))
                .extracting(LedgerEntry::userId)
                .containsExactlyElementsOf(order.subList(0, (int) STOCK));
        List<Outcome> won = success.readValuesToList();
        assertThat(won).extracting(Outcome::userId).containsExactlyElementsOf(order.subList(0, (int) STOCK));
        assertThat(won.stream().filter(o -> o.userId() == 99)).hasSizeLessThanOrEqualTo(1);
        List<Outcome> lost = soldOut.readValuesToList();
        assertThat(lost.get(lost.size() - 1).requestId())
                .as("a purchase accepted after the window is decided after every drawn one")
                .isEqualTo("after-window");
    }

    @Test
    void givenTheWindowClosed_thePurchasesHeldBehindTheDraw_areDecidedAfterIt_inTheOrderTheyArrived() {
        // Given a closed window, and four purchases after it whose accepted times run against their arrival
        openLottery();
        aCrowdArrives(); // "after-window" at window end + 100 ms
        buy("late-a", 501, WINDOW_MS + 700);
        buy("late-b", 502, WINDOW_MS + 300);
        buy("late-c", 503, WINDOW_MS + 500);
        assertThat(soldOut.getQueueSize() + success.getQueueSize() + rejected.getQueueSize() + duplicate.getQueueSize())
                .as("held while the draw is due")
                .isZero();

        // When the allowance passes and the draw runs
        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));

        // Then the window's purchases are decided first, the held ones after them in arrival order, not time order
        List<String> answered =
                soldOut.readValuesToList().stream().map(Outcome::requestId).toList();
        assertThat(answered.subList(answered.size() - 4, answered.size()))
                .containsExactly("after-window", "late-a", "late-b", "late-c");
        assertThat(answered.subList(0, answered.size() - 4))
                .noneMatch(r -> r.startsWith("late") || r.startsWith("after"));
    }

    @Test
    void aDrawLargerThanOneTransaction_passesOnAChunkPerTransaction_inTheSameOrder_laterCommandsBehindIt() {
        driver.close();
        start(4); // 35 held commands: nine transactions instead of one
        openLottery();
        List<Long> arrival = aCrowdArrives();
        ledger.readValuesToList();

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));
        List<LedgerEntry> entries = ledger.readValuesToList();
        assertThat(entries.get(0).type()).isEqualTo(LedgerType.DRAWN);
        List<Long> order = Draw.order(seedOf(entries.get(0)), GOODS, arrival);
        long decided =
                success.getQueueSize() + soldOut.getQueueSize() + rejected.getQueueSize() + duplicate.getQueueSize();
        assertThat(decided)
                .as("the draw's first transaction passes on one chunk")
                .isEqualTo(4);
        buy("while-releasing", 700, WINDOW_MS + ALLOWANCE.toMillis() + 500); // arrives while the draw is passed on

        for (int tick = 0; tick < 20; tick++) driver.advanceWallClockTime(Duration.ofMillis(60));
        List<Outcome> won = success.readValuesToList();
        assertThat(won)
                .as("the same winners, in the same order, as passing the draw on at once")
                .extracting(Outcome::userId)
                .containsExactlyElementsOf(order.subList(0, (int) STOCK));
        List<Outcome> lost = soldOut.readValuesToList();
        boolean botWon = order.subList(0, (int) STOCK).contains(99L);
        List<Outcome> turnedAway = duplicate.readValuesToList();
        assertThat(turnedAway)
                .as("the bot's other tickets are DUPLICATE of the purchase it holds, only when its one ticket won")
                .hasSize(botWon ? 3 : 0)
                .allMatch(o -> o.userId() == 99);
        assertThat(rejected.readValuesToList()).isEmpty();
        assertThat(lost).hasSize(35 + 1 - (int) STOCK - turnedAway.size());
        assertThat(lost.get(lost.size() - 2).requestId()).isEqualTo("after-window");
        assertThat(lost.get(lost.size() - 1).requestId())
                .as("a command that came while the draw was passed on waits behind all of it")
                .isEqualTo("while-releasing");

        buy("after-the-release", 701, WINDOW_MS + ALLOWANCE.toMillis() + 900);
        assertThat(soldOut.readValuesToList())
                .as("once released, the goods' commands are decided at once again")
                .extracting(Outcome::requestId)
                .containsExactly("after-the-release");
    }

    @Test
    void goodsDrawnTogether_shareOneTransactionsChunk_andEachIsPassedOnWhole() {
        driver.close();
        start(4);
        long other = GOODS + 1;
        for (long goods : List.of(GOODS, other)) {
            OpenSale o = new OpenSale(
                    goods, 3, START, START.plusSeconds(3600), 1, "open-" + goods, false, Fairness.LOTTERY, WINDOW_MS);
            send(goods, CommandCodec.encode(o), START.minusSeconds(1), new RecordHeaders());
            for (long u = 1; u <= 6; u++) {
                Instant at = START.plusMillis(10 * u);
                send(
                        goods,
                        CommandCodec.encode(new Purchase("r-" + goods + "-" + u, goods, u, 1, at)),
                        at,
                        new RecordHeaders());
            }
        }

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));
        assertThat(ledger.readValuesToList())
                .filteredOn(e -> e.type() == LedgerType.DRAWN)
                .as("both windows drawn in the same tick")
                .hasSize(2);
        assertThat(success.getQueueSize() + soldOut.getQueueSize() + rejected.getQueueSize())
                .as("one chunk for the transaction, not one per goods")
                .isEqualTo(4);

        for (int tick = 0; tick < 10; tick++) driver.advanceWallClockTime(Duration.ofMillis(60));
        List<Outcome> decided = new ArrayList<>(success.readValuesToList());
        decided.addAll(soldOut.readValuesToList());
        assertThat(decided)
                .extracting(Outcome::goodsId)
                .as("every purchase of both goods passed on")
                .containsOnly(GOODS, other)
                .hasSize(12);
    }

    @Test
    void givenACopyOfASaleRecordedSecondsAgo_whenItPausesMidWindowPastTheAllowance_thenTheWindowWaitsForTheRest() {
        // Given the sale's records read 20 s after they were appended (a replay drill of a sale just recorded): a
        // pause in the copy longer than the allowance is the copy, not the end of the window's purchases
        driver.advanceWallClockTime(Duration.ofSeconds(20));
        openLottery();
        for (long u = 1; u <= 15; u++) buy("r-" + u, u, 10 * u);
        driver.advanceWallClockTime(ALLOWANCE.multipliedBy(3));
        assertThat(ledger.readValuesToList())
                .as("no draw during the copy's pause")
                .extracting(LedgerEntry::type)
                .containsExactly(LedgerType.OPENED);
        for (long u = 16; u <= 30; u++) buy("r-" + u, u, 10 * u);

        // When the copy has been quiet for as long as it was behind (at most ten seconds)
        driver.advanceWallClockTime(Duration.ofSeconds(11));

        // Then the draw holds every purchase of the window, as the live sale's did
        LedgerEntry drawn = ledger.readValuesToList().get(0);
        assertThat(drawn.type()).isEqualTo(LedgerType.DRAWN);
        assertThat(drawn.draw().entries()).isEqualTo(30);
        assertThat(drawn.draw().buyers()).isEqualTo(30);
    }

    @Test
    void givenTheWindowClosed_whenARecordTimedPastTheAllowanceArrives_thenTheDrawRunsBeforeIt() {
        openLottery();
        List<Long> arrival = aCrowdArrives();
        ledger.readValuesToList();

        buy("late-comer", 600, WINDOW_MS + ALLOWANCE.toMillis() + 1);

        byte[] seed = seedOf(ledger.readValuesToList().get(0));
        assertThat(success.readValuesToList())
                .extracting(Outcome::userId)
                .containsExactlyElementsOf(Draw.order(seed, GOODS, arrival).subList(0, (int) STOCK));
        List<Outcome> lost = soldOut.readValuesToList();
        assertThat(lost.get(lost.size() - 1).requestId()).isEqualTo("late-comer");
    }

    @Test
    void aHeldCommandKeepsItsTraceAndIsJudgedAtItsOwnOffset() {
        openLottery();
        buy("r-1", 1, 10);
        send(GOODS, "{not json".getBytes(StandardCharsets.UTF_8), START.plusMillis(20), new RecordHeaders());
        buy("r-2", 2, 30);

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));

        List<TestRecord<String, Outcome>> won = success.readRecordsToList();
        assertThat(won).hasSize(2);
        for (TestRecord<String, Outcome> r : won)
            assertThat(TraceHeaders.get(r.headers()))
                    .isEqualTo("trace-" + r.value().requestId());
        assertThat(won.get(0).headers().lastHeader(HeldOrigin.HEADER)).isNull();
        var dead = dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader("source-offset").value(), StandardCharsets.UTF_8))
                .isEqualTo("2");
        assertThat(new String(dead.get(0).headers().lastHeader("source-topic").value(), StandardCharsets.UTF_8))
                .isEqualTo(topics.commands());
    }

    @Test
    void
            givenARegistration_whenBuyersRegisterBeforeTheStart_thenTheDrawAtTheStartPicksTheWinnersAsAcceptedAtTheStart() {
        OpenSale o = new OpenSale(
                GOODS, STOCK, START, START.plusSeconds(3600), 1, "open-reg", false, Fairness.REGISTRATION, 30_000);
        send(GOODS, CommandCodec.encode(o), START.minusSeconds(40), new RecordHeaders());
        List<Long> registered = new ArrayList<>();
        for (long u = 1; u <= 20; u++) {
            buy("reg-" + u, u, -30_000 + 1_000 * u); // 29 s .. 10 s before the start
            registered.add(u);
        }
        assertThat(success.readValuesToList()).isEmpty();
        assertThat(rejected.readValuesToList())
                .as("no registration is told not_started")
                .isEmpty();

        // read at the start, 10 s after the last registration was appended: the hold waits as long for any straggler,
        // not only the allowance
        driver.advanceWallClockTime(ALLOWANCE.plusMillis(100));
        assertThat(success.readValuesToList())
                .as("no draw an allowance after the cutoff")
                .isEmpty();
        driver.advanceWallClockTime(Duration.ofSeconds(10).minus(ALLOWANCE));

        List<LedgerEntry> entries = ledger.readValuesToList();
        LedgerEntry opened = entries.get(0);
        byte[] seed = seedOf(entries.get(1));
        List<Outcome> won = success.readValuesToList();
        assertThat(won)
                .extracting(Outcome::userId)
                .containsExactlyElementsOf(Draw.order(seed, GOODS, registered).subList(0, (int) STOCK));
        assertThat(won).extracting(Outcome::acceptedAt).containsOnly(START);
        assertThat(soldOut.readValuesToList()).hasSize(20 - (int) STOCK);
        assertThat(rejected.readValuesToList()).isEmpty();
        assertThat(opened.draw().fairness()).isEqualTo("registration");
        assertThat(opened.draw().windowEndAt()).isEqualTo(START);
    }

    @Test
    void givenALotteryOpenEndedBeforeItWasSent_thenNothingIsHeld_theNextPurchaseIsAnsweredAtOnce() {
        // ended before it was issued (the record's time): refused to the DLQ
        OpenSale o =
                new OpenSale(GOODS, STOCK, START, START.plusSeconds(1), 1, "open-late", false, Fairness.LOTTERY, 500);
        send(GOODS, CommandCodec.encode(o), START.plusSeconds(2), new RecordHeaders());
        buy("after-refusal", 1, 2_100);

        assertThat(dlq.readRecordsToList()).hasSize(1);
        assertThat(rejected.readValuesToList())
                .as("decided at once, no wall-clock time passed")
                .extracting(Outcome::requestId, Outcome::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("after-refusal", "no_sale"));
        assertThat(ledger.readValuesToList()).extracting(LedgerEntry::type).doesNotContain(LedgerType.DRAWN);
    }

    @Test
    void givenALiveSale_whenALotteryOpenIsRefusedOverIt_thenTheLiveSalesPurchasesAreDecidedAtOnce() {
        OpenSale live = new OpenSale(GOODS, STOCK, START, START.plusSeconds(3600), 1, "open-live", false);
        send(GOODS, CommandCodec.encode(live), START.minusSeconds(1), new RecordHeaders());
        buy("live-1", 1, 10);
        assertThat(success.readValuesToList()).hasSize(1);
        // a lottery opened a day ahead over the live sale, without force: refused (the live sale's keys are there)
        OpenSale lottery = new OpenSale(
                GOODS,
                STOCK,
                START.plus(Duration.ofDays(1)),
                START.plus(Duration.ofDays(1)).plusSeconds(3600),
                1,
                "open-tomorrow",
                false,
                Fairness.LOTTERY,
                60_000);
        send(GOODS, CommandCodec.encode(lottery), START.plusMillis(20), new RecordHeaders());
        assertThat(dlq.readRecordsToList()).hasSize(1);

        buy("live-2", 2, 30);

        assertThat(success.readValuesToList())
                .as("the live sale goes on: nothing waits for a refused open's window")
                .extracting(Outcome::requestId)
                .containsExactly("live-2");
    }

    @Test
    void givenADrawnOpenStartingMoreThanSevenDaysAhead_thenItIsRefusedNamingStartAt() {
        Instant far = START.plus(Duration.ofDays(8));
        OpenSale o = new OpenSale(GOODS, STOCK, far, far.plusSeconds(60), 1, "open-far", false, Fairness.LOTTERY, 500);
        send(GOODS, CommandCodec.encode(o), START, new RecordHeaders());

        var dead = dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader("error").value(), StandardCharsets.UTF_8))
                .contains("startAt");
        assertThat(ledger.readValuesToList()).isEmpty();
    }

    @Test
    void givenAProducerWhoseClockRunsTenMinutesAhead_thenItsPurchaseNeitherEndsTheWindowNorIsAnEntry() {
        openLottery();
        buy("r-1", 1, 10);
        // the producer stamps acceptedAt 10 minutes ahead; the broker appends it mid-window (LogAppendTime)
        Instant ahead = START.plusMillis(500).plus(Duration.ofMinutes(10));
        send(
                GOODS,
                CommandCodec.encode(new Purchase("r-ahead", GOODS, 2, 1, ahead)),
                START.plusMillis(500),
                new RecordHeaders());
        buy("r-3", 3, 900);

        assertThat(ledger.readValuesToList()).extracting(LedgerEntry::type).containsExactly(LedgerType.OPENED);
        assertThat(success.readValuesToList()).as("the window is still open").isEmpty();

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));

        LedgerEntry drawn = ledger.readValuesToList().get(0);
        assertThat(drawn.type()).isEqualTo(LedgerType.DRAWN);
        assertThat(drawn.draw().entries())
                .as("r-1 and r-3; the clock-ahead purchase is not an entry")
                .isEqualTo(2);
    }

    @Test
    void givenTheBeaconCannotBeReached_thenTheDrawWaits_theGaugeSaysSo_andNothingFallsBackToArrivalOrder() {
        openLottery();
        List<Long> arrival = aCrowdArrives();
        ledger.readValuesToList();
        beacon.unreachable = "relay http://127.0.0.1:1 unreachable: connection refused";

        driver.advanceWallClockTime(Duration.ofMillis(WINDOW_MS).plus(ALLOWANCE).plusMillis(100));
        driver.advanceWallClockTime(Duration.ofSeconds(5));

        assertThat(success.readValuesToList()).isEmpty();
        assertThat(soldOut.readValuesToList()).isEmpty();
        assertThat(ledger.readValuesToList()).isEmpty();
        assertThat(metrics.get("seckill_draw_beacon_wait_seconds").gauge().value())
                .isGreaterThan(1.0);

        beacon.unreachable = null;
        driver.advanceWallClockTime(Duration.ofMillis(100));

        byte[] seed = seedOf(ledger.readValuesToList().get(0));
        assertThat(success.readValuesToList())
                .extracting(Outcome::userId)
                .containsExactlyElementsOf(Draw.order(seed, GOODS, arrival).subList(0, (int) STOCK));
        assertThat(metrics.get("seckill_draw_beacon_wait_seconds").gauge().value())
                .isZero();
    }

    @Test
    void aCommandFromOutsideCarryingTheHoldsOriginHeaderIsJudgedAtItsOwnOffset() {
        RecordHeaders forged = new RecordHeaders();
        forged.add(HeldOrigin.HEADER, "0:999:0:elsewhere".getBytes(StandardCharsets.UTF_8));
        send(GOODS, "{not json".getBytes(StandardCharsets.UTF_8), START, forged);

        var dead = dlq.readRecordsToList();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader("source-offset").value(), StandardCharsets.UTF_8))
                .isEqualTo("0");
        assertThat(new String(dead.get(0).headers().lastHeader("source-topic").value(), StandardCharsets.UTF_8))
                .isEqualTo(topics.commands());
    }
}
