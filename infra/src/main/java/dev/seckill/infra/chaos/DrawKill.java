package dev.seckill.infra.chaos;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Two drawn sales beside the load's — a lottery, and a registration whose window before its start runs at the same
 * time — with stock-stream SIGKILLed inside their windows: half of each one's buyers' purchases before the kill, half
 * after, all accepted in the window. Checks after the drain: every window
 * purchase was in the draw (the restarted stream restored what it held), the outcomes follow the draw recomputed from
 * the topics — the winners the same as without the kill —, one answer per purchase, every SUCCESS its order row, the
 * goods' invariants; and prints the draw's time to answer (from when the draw was due to each outcome).
 */
final class DrawKill {
    static final long LOTTERY_GOODS = Sales.GOODS + 2;
    static final long REGISTRATION_GOODS = Sales.GOODS + 3;
    static final long UNITS = 40;
    static final int BUYERS = 200;
    /**
     * Long enough for a restart inside it (3–5 s here on a quiet machine, 12 s and more beside other heavy work). One
     * that outlasts it fails the check, naming why.
     */
    static final long WINDOW_MS = 20_000;

    private DrawKill() {}

    static ChaosScenario.Fault killInTheWindow() {
        return t -> {
            Instant start = Instant.now().plusMillis(500);
            String run = UUID.randomUUID().toString().substring(0, 8);
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            // the registration's window [start, start + window) ends at its sale's start: both windows run together
            Instant registrationStart = start.plusMillis(WINDOW_MS);
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(t.settings)) {
                open(t, producer, LOTTERY_GOODS, start, Fairness.LOTTERY, run);
                open(t, producer, REGISTRATION_GOODS, registrationStart, Fairness.REGISTRATION, run);
                ChaosTarget.await(() -> Instant.now().isAfter(start), 5);
                send(t, producer, sent, run, 1, BUYERS / 2);
                // killed once the stream holds the first half in its store and has committed it (its offsets past
                // them): the restart must restore what it held, not read the purchases again from the topic
                long heldMs = ChaosTarget.await(() -> committedPast(t, sent), 30);
                if (heldMs < 0) throw new IllegalStateException("the stream did not commit the held purchases in 30 s");
                t.out.printf(
                        "  drawn goods %d (lottery), %d (registration): SIGKILL of stock-stream inside their windows,"
                                + " %d purchases held and committed%n",
                        LOTTERY_GOODS, REGISTRATION_GOODS, sent.size());
                long killedAt = System.nanoTime();
                t.recovered(killedAt, t.pipeline.killAndRestart("stock-stream", 0));
                send(t, producer, sent, run, BUYERS / 2 + 1, BUYERS);
                for (Future<RecordMetadata> f : sent) f.get(30, TimeUnit.SECONDS);
            }
            boolean outlasted = Instant.now().isAfter(start.plusMillis(WINDOW_MS));
            long due = start.toEpochMilli() + WINDOW_MS + 1_000; // the stream's default allowance
            t.check(
                    "lottery goods " + LOTTERY_GOODS
                            + " with stock-stream SIGKILLed in its window: every window purchase"
                            + " drawn, outcomes follow the draw, one answer each, every SUCCESS its order row",
                    () -> outlasted ? outlasted() : verify(t, LOTTERY_GOODS, due));
            t.check(
                    "registration goods " + REGISTRATION_GOODS
                            + " with stock-stream SIGKILLed in its window: every registration drawn at the start,"
                            + " outcomes follow the draw, one answer each, every SUCCESS its order row",
                    () -> outlasted ? outlasted() : verify(t, REGISTRATION_GOODS, due));
        };
    }

    private static String outlasted() {
        return "the restart outlasted the " + WINDOW_MS + " ms window: the second half was sent after it, so the kill"
                + " inside the window was not tested";
    }

    /** Whether the stream's committed offsets are past every purchase sent so far, in each partition they went to. */
    private static boolean committedPast(ChaosTarget t, List<Future<RecordMetadata>> sent) {
        try (Admin admin = KafkaClients.admin(t.settings)) {
            Map<TopicPartition, Long> last = new HashMap<>();
            for (Future<RecordMetadata> f : sent) {
                RecordMetadata m = f.get(30, TimeUnit.SECONDS);
                last.merge(new TopicPartition(m.topic(), m.partition()), m.offset(), Math::max);
            }
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                            GroupIds.stockStream(t.settings))
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            for (Map.Entry<TopicPartition, Long> e : last.entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                if (c == null || c.offset() <= e.getValue()) return false;
            }
            return true;
        } catch (Exception e) {
            return false; // asked again on the next poll
        }
    }

    private static void open(
            ChaosTarget t, KafkaProducer<String, byte[]> producer, long goods, Instant start, Fairness mode, String run)
            throws Exception {
        // one opId for both goods, as an operator may send: an opId means one thing per goods, in every store
        OpenSale open = new OpenSale(
                goods, UNITS, start, start.plusSeconds(3600), 1, "open-draw-" + run, false, mode, WINDOW_MS);
        producer.send(new ProducerRecord<>(t.topics.commands(), open.key(), CommandCodec.encode(open)))
                .get(30, TimeUnit.SECONDS);
    }

    private static void send(
            ChaosTarget t,
            KafkaProducer<String, byte[]> producer,
            List<Future<RecordMetadata>> sent,
            String run,
            int from,
            int to) {
        for (int u = from; u <= to; u++) {
            for (long goods : List.of(LOTTERY_GOODS, REGISTRATION_GOODS)) {
                Purchase p = new Purchase("draw-" + run + "-" + u, goods, 70_000_000L + u, 1, Instant.now());
                sent.add(producer.send(new ProducerRecord<>(t.topics.commands(), p.key(), CommandCodec.encode(p))));
            }
        }
    }

    private static String verify(ChaosTarget t, long goods, long due) throws Exception {
        DrawRecords r = DrawRecords.read(t.settings, goods, DrawBeacons.chains(t.settings));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (r.outcomes().size() < BUYERS && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(500); // the stream, another process, decides them
            r = DrawRecords.read(t.settings, goods, DrawBeacons.chains(t.settings));
        }
        if (r.outcomes().size() != BUYERS) return r.outcomes().size() + " outcomes for " + BUYERS + " purchases";
        List<DrawCheck.Result> draws = DrawCheck.check(r);
        if (draws.size() != 1) return draws.size() + " draws recorded";
        DrawCheck.Result d = draws.get(0);
        if (!d.follows()) return "the outcomes do not follow the draw: " + d.problems();
        if (d.buyers() != BUYERS) return "the draw took " + d.buyers() + " of the " + BUYERS + " window's buyers";
        List<Outcome> won = r.outcomes().stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .toList();
        if (won.size() != UNITS) return won.size() + " SUCCESS for " + UNITS + " units";
        long[] waits = r.outcomes().stream()
                .mapToLong(o -> o.decidedAt().toEpochMilli() - due)
                .toArray();
        t.out.printf(
                "  goods %d, the draw's time to answer (cutoff → outcome): p50 %d ms, p99 %d ms, max %d ms%n",
                goods,
                Latencies.percentile(waits, 50, 0),
                Latencies.percentile(waits, 99, 0),
                Latencies.percentile(waits, 100, 0));
        for (Outcome o : won) SaleRecords.awaitOrder(t, goods, o.requestId(), null);
        try (Connection c = t.db()) {
            SaleAudit audit = SaleAudit.settled(() -> SaleFacts.ofPipeline(t.settings, c, goods));
            return audit.ok() ? null : "goods " + goods + ": " + String.join("; ", audit.violations);
        }
    }
}
