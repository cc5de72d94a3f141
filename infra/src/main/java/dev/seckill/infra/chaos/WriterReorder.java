package dev.seckill.infra.chaos;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.infra.chaos.SaleRecords.DeadLetter;
import dev.seckill.infra.chaos.SaleRecords.OrderRow;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.kit.kafka.ReliableProducers;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The order-writer far behind while buyers cancel and buy again: mid-sale the order-writer is SIGKILLed and, while it
 * is down, an upstream service (a producer on {@code <prefix>commands}, as the order and payment services write) cancels
 * the purchase of {@value #BUYERS} buyers who hold a SUCCESS — a {@code release} naming its requestId, reason
 * {@code cancelled} or {@code order_failed} in turn — and each buyer buys again at once (a new requestId); every
 * {@value #TWICE_EVERY}rd buyer cancels that one too and buys a third time. Then the writer is started again and has all
 * of it to apply at once. Before the writer read the ledger (it wrote orders from the SUCCESS outcome topic and releases
 * from the ledger), a re-buy's SUCCESS could be applied before the RELEASED of the purchase it replaced, meet the
 * buyer's live order on {@code uk_order_live_buyer} and be dead-lettered: a SUCCESS without its order.
 *
 * <p>Each release is sent together with its re-buy in one producer batch (appended back to back, then flushed), so they
 * are adjacent on the sale's partition: no purchase of the load's buyers falls between the unit given back and the
 * re-buy taking it, and the re-buy is decided SUCCESS whether or not the sale has units left.
 */
final class WriterReorder {
    static final int BUYERS = 30;
    /** Every third buyer cancels and buys again a second time. */
    static final int TWICE_EVERY = 3;

    private static final List<String> REASONS = List.of("cancelled", "order_failed");

    private WriterReorder() {}

    /** One buyer's purchases in order: the load's SUCCESS first, then each re-buy; all but the last one released. */
    record Buyer(long user, List<String> purchases) {
        String last() {
            return purchases.get(purchases.size() - 1);
        }
    }

    /**
     * Recovery: the writer's restart ({@code /health} 200) → an order row for every SUCCESS decided by then. Checks: every
     * SUCCESS of the goods has its order row — the re-buys' too, each released purchase CANCELLED and each buyer's last
     * one live —, no record dead-lettered by the order-writer, the DB's {@code sale.stock} = the ledger fold.
     */
    static ChaosScenario.Fault cancelAndRebuyWhileTheWriterIsDown() {
        return t -> {
            String run = Long.toString(System.nanoTime(), 36);
            long at = System.nanoTime();
            long pid = WriterReorderReads.sigkillWriter();
            List<Buyer> buyers = new ArrayList<>();
            Map<String, Long> rebuys = new LinkedHashMap<>(); // requestId → its buyer
            Map<String, Integer> reasons = new TreeMap<>();
            int behind = 0;
            long downMs;
            long health;
            try (KafkaProducer<String, byte[]> producer =
                    ReliableProducers.create(t.settings, Map.of(ProducerConfig.LINGER_MS_CONFIG, 50))) {
                int ledgerAtKill = SaleRecords.ledger(t, t.goods).size();
                buyers.addAll(WriterReorderReads.holders(t, BUYERS));
                for (int round = 1; round <= 2; round++) {
                    if (round > 1) t.pause(200, 800); // the writer stays down; the load's buyers go on meanwhile
                    Map<String, List<String>> decided = round > 1 ? WriterReorderReads.decisions(t) : Map.of();
                    List<String> sent = new ArrayList<>();
                    for (int i = 0; i < buyers.size(); i++) {
                        Buyer b = buyers.get(i);
                        // the second time, a buyer whose re-buy went through (its SUCCESS read, as an upstream would)
                        if (round > 1
                                && (i % TWICE_EVERY != 0
                                        || !decided.getOrDefault(b.last(), List.of())
                                                .equals(List.of("SUCCESS")))) continue;
                        String reason = REASONS.get((i + round) % REASONS.size());
                        String released = b.last();
                        String rebuy = "reorder-" + run + "-" + i + "-" + round;
                        Release cancel = new Release(t.goods, b.user(), 1, null, released, reason, rebuy + "-release");
                        Purchase again = new Purchase(rebuy, t.goods, b.user(), 1, Instant.now());
                        // back to back in one batch: adjacent on the partition, nothing decided between them
                        send(producer, t, cancel);
                        send(producer, t, again);
                        producer.flush();
                        b.purchases().add(rebuy);
                        rebuys.put(rebuy, b.user());
                        reasons.merge(reason, 1, Integer::sum);
                        sent.add(rebuy);
                    }
                    WriterReorderReads.awaitOutcomes(t, sent);
                }
                t.pause(500, 1_500); // a while longer behind: the load's SUCCESSes pile up too
                behind = SaleRecords.ledger(t, t.goods).size() - ledgerAtKill;
            } finally {
                // started again whatever happened meanwhile: its process is dead already, the SIGKILL a no-op
                downMs = (System.nanoTime() - at) / 1_000_000;
                health = t.pipeline.killAndRestart("order-writer", 0);
            }
            Set<String> owed = WriterReorderReads.successes(t);
            long caughtUp =
                    ChaosTarget.await(() -> WriterReorderReads.rowsFor(t).containsAll(owed), 120);
            if (caughtUp < 0)
                throw new IllegalStateException("the restarted order-writer did not write an order row for each of the "
                        + owed.size() + " SUCCESS in 120 s");
            t.recovered(at, caughtUp);
            Map<String, List<String>> decided = WriterReorderReads.decisions(t);
            Map<String, Integer> answered = new TreeMap<>();
            for (String rid : rebuys.keySet())
                answered.merge(String.join("+", decided.getOrDefault(rid, List.of("none"))), 1, Integer::sum);
            long twice = buyers.stream().filter(b -> b.purchases().size() > 2).count();
            String what = String.format(
                    "order-writer (pid %d) SIGKILLed, started again %,d ms later (%,d ledger entries of the goods"
                            + " decided in between); meanwhile %d buyers holding a SUCCESS cancelled (releases by reason"
                            + " %s) and bought again, %d of them twice: re-buys answered %s",
                    pid, downMs, behind, buyers.size(), reasons, twice, answered);
            t.out.printf(
                    "    %s; its restart's /health 200 after %,d ms, an order row for each of the %d SUCCESS %,d ms"
                            + " later%n",
                    what, health, owed.size(), caughtUp);
            String[] found = {""};
            t.check(
                    () -> what + ". Every SUCCESS of the goods has its order row (the re-buys' too: each released"
                            + " purchase CANCELLED, each buyer's last one live), 0 records dead-lettered by order-writer,"
                            + " DB stock = the ledger fold" + found[0],
                    () -> {
                        String[] figures = {""};
                        String violation = violation(t, buyers, rebuys, figures);
                        found[0] = figures[0];
                        return violation;
                    });
        };
    }

    private static void send(KafkaProducer<String, byte[]> producer, ChaosTarget t, Command c) {
        producer.send(new ProducerRecord<>(t.topics.commands(), c.key(), CommandCodec.encode(c)));
    }

    /** What the writer got wrong after the drain, or null; {@code figures[0]} gets what was found. */
    private static String violation(ChaosTarget t, List<Buyer> buyers, Map<String, Long> rebuys, String[] figures)
            throws Exception {
        List<String> wrong = new ArrayList<>();
        Map<String, List<String>> decided = WriterReorderReads.decisions(t);
        List<DeadLetter> dlq = SaleRecords.dlq(t);
        List<DeadLetter> writers = dlq.stream()
                .filter(d -> !d.sourceTopic().equals(t.topics.commands()))
                .toList();
        try (Connection c = t.db()) {
            Map<String, List<OrderRow>> rows = SaleRecords.orders(c, t.goods);
            List<String> without = new ArrayList<>();
            int success = 0;
            for (var e : decided.entrySet()) {
                if (!e.getValue().contains("SUCCESS")) continue;
                success++;
                if (rows.getOrDefault(e.getKey(), List.of()).isEmpty()) without.add(e.getKey());
            }
            Collections.sort(without);
            if (!without.isEmpty())
                wrong.add(without.size() + " SUCCESS without their order row ("
                        + without.stream().filter(rebuys::containsKey).count() + " of them re-buys), first "
                        + without.get(0));
            for (String rid : rebuys.keySet())
                if (!decided.getOrDefault(rid, List.of()).equals(List.of("SUCCESS")))
                    wrong.add("re-buy " + rid + " of buyer " + rebuys.get(rid) + " was decided " + decided.get(rid));
            Map<String, Integer> statuses = new TreeMap<>();
            for (Buyer b : buyers)
                for (String rid : b.purchases()) {
                    boolean last = rid.equals(b.last());
                    List<OrderRow> r = rows.getOrDefault(rid, List.of());
                    String status = r.size() == 1 ? r.get(0).status() : r.size() + " rows";
                    statuses.merge((last ? "last " : "released ") + status, 1, Integer::sum);
                    boolean right = r.size() == 1
                            && r.get(0).userId() == b.user()
                            && (last ? r.get(0).live() : status.equals("CANCELLED"));
                    if (!right && wrong.size() < 5)
                        wrong.add("buyer " + b.user() + "'s " + (last ? "last purchase " : "released purchase ") + rid
                                + " has rows " + r);
                }
            SaleFacts facts = SaleFacts.ofPipeline(t.settings, c, t.goods);
            if (facts.dbStock() == null || facts.dbStock() != facts.fold())
                wrong.add("DB stock " + facts.dbStock() + ", the ledger fold " + facts.fold());
            if (!writers.isEmpty())
                wrong.add(writers.size() + " records dead-lettered by order-writer, first from "
                        + writers.get(0).sourceTopic() + ": " + writers.get(0).error());
            figures[0] = String.format(
                    "; %d SUCCESS, %d without their row; the scenario's purchases by order status %s; DLQ %d records,"
                            + " %d from order-writer; DB stock %s, ledger fold %d",
                    success, without.size(), statuses, dlq.size(), writers.size(), facts.dbStock(), facts.fold());
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }
}
