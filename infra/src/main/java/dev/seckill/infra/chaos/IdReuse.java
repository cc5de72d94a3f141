package dev.seckill.infra.chaos;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.buyers.FinalAnswer;
import dev.seckill.kit.kafka.ReliableProducers;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Hostile buyers and producers reusing one requestId for other purchases while the sale runs (a purchase is
 * (goodsId, requestId) in every store). Through the gateway: the same buyer's id for another goods or quantity (422
 * naming the field), another buyer's (409), eight requests at once under one new id (one accepted), an id of a first
 * sale of a second goods sent again in its second sale. Straight on {@code <prefix>commands}, as an upstream producer
 * writes: one id for another buyer, another quantity, another goods (another purchase: decided on its own), an earlier
 * sale. Checks ({@link IdReuseCheck}): the gateway's answers; the stream's REJECTED invalid with a detail to each reuse;
 * never two SUCCESS for one (goods, requestId); every SUCCESS exactly its order row; no unit held without an order.
 */
final class IdReuse {
    /** The second goods: its first sale, then a second one, beside the load's goods. */
    static final long SECOND_GOODS = Sales.GOODS + 1;

    static final long SECOND_STOCK = 20;
    static final long HOSTILE = 80_000_000L;

    private IdReuse() {}

    static ChaosScenario.Fault hostileIds() {
        return t -> {
            long at = System.nanoTime(); // the first hostile request: the fault is the whole sequence that follows
            String run = Long.toString(at, 36);
            long g1 = t.goods;
            long g2 = SECOND_GOODS;
            Sales.open(t.settings, g2, SECOND_STOCK);
            IdReuseCheck check = new IdReuseCheck(t, run);
            double storeErrors = GatewayCalls.metric(t.pipeline.metricsPort(), "seckill_gateway_status_store_errors");
            // 1. buyer 1's id on goods 2, then for goods 1 and quantity 2 (422), for buyers 2 (409); the retry
            String r1 = check.id("a");
            FinalAnswer first = t.calls.purchase(g2, HOSTILE + 1, 1, r1);
            check.gateway("buyer 1, goods " + g1, t.calls.purchase(g1, HOSTILE + 1, 1, r1), 422, "goodsId");
            check.gateway("buyer 1, quantity 2", t.calls.purchase(g2, HOSTILE + 1, 2, r1), 422, "quantity");
            check.gateway("buyer 2", t.calls.purchase(g2, HOSTILE + 2, 1, r1), 409, "requestId");
            check.gateway("buyer 2, goods " + g1, t.calls.purchase(g1, HOSTILE + 2, 1, r1), 409, "requestId");
            FinalAnswer retry = t.calls.purchase(g2, HOSTILE + 1, 1, r1);
            if (!first.success() || !retry.toString().equals(first.toString()))
                check.wrong("buyer 1's purchase was answered " + first + ", its retry " + retry);
            check.decidedOnce(g2, r1);
            check.neverDecided(g1, r1);
            // 2. eight requests at once under one new id: buyers 10-13 on both goods; one goes through
            String r2 = check.id("b");
            List<CompletableFuture<FinalAnswer>> burst = new ArrayList<>();
            List<Long> burstGoods = new ArrayList<>();
            for (int b = 0; b < 4; b++)
                for (long g : List.of(g2, g1)) {
                    burst.add(t.calls.purchaseAsync(g, HOSTILE + 10 + b, 1, r2));
                    burstGoods.add(g);
                }
            check.burst(r2, burst.stream().map(CompletableFuture::join).toList(), storeErrors);
            for (int i = 0; i < burst.size(); i++) // its order, if goods 2's, is released before the second sale
            if (burst.get(i).join().success() && burstGoods.get(i) == g2) SaleRecords.awaitOrder(t, g2, r2, null);
            // 3. buyer 3 buys goods 2 with r3; the first sale's buyers released, the sale closed, a second opened
            String r3 = check.id("c");
            FinalAnswer bought = t.calls.purchase(g2, HOSTILE + 3, 1, r3);
            if (!bought.success())
                throw new IllegalStateException("buyer 3 of goods " + g2 + " was answered " + bought);
            SaleRecords.awaitOrder(t, g2, r1, null);
            SaleRecords.awaitOrder(t, g2, r3, null);
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(t.settings)) {
                secondSale(t, producer, g2);
                // the same purchase again through the gateway (a retry: its first answer), another buyer's (409)
                check.sameAnswer("buyer 3's r3 in the second sale", t.calls.purchase(g2, HOSTILE + 3, 1, r3));
                check.gateway("buyer 4, second sale", t.calls.purchase(g2, HOSTILE + 4, 1, r3), 409, "requestId");
                // 4. upstream producers: (goods 1, r4) for buyer 6, then for buyer 7 and for quantity 2 (refused), the
                // same record again (a retry); (goods 2, r4): another purchase; r3 in goods 2's second sale
                String r4 = check.id("d");
                Instant now = Instant.now();
                send(producer, t, new Purchase(r4, g1, HOSTILE + 6, 1, now));
                send(producer, t, new Purchase(r4, g1, HOSTILE + 7, 1, now));
                send(producer, t, new Purchase(r4, g1, HOSTILE + 6, 2, now));
                send(producer, t, new Purchase(r4, g1, HOSTILE + 6, 1, now));
                send(producer, t, new Purchase(r4, g2, HOSTILE + 7, 1, now));
                send(producer, t, new Purchase(r3, g2, HOSTILE + 3, 1, now));
                send(producer, t, new Purchase(r3, g2, HOSTILE + 5, 1, now));
                check.refused(g1, r4, HOSTILE + 7, 1);
                check.refused(g1, r4, HOSTILE + 6, 2);
                check.refused(g2, r3, HOSTILE + 3, 1);
                check.refused(g2, r3, HOSTILE + 5, 1);
                check.decidedOnce(g1, r4);
                check.decidedOnce(g2, r4);
                check.decidedOnce(g2, r3);
            }
            t.injected(at);
            t.check(check::what, check::violation);
        };
    }

    /**
     * Goods 2's first sale ended and a second one opened, as an operator does it: each live order's units released
     * (a cancel), the sale closed, a new one opened with force (its keys are still there). Waits until the stream
     * applied the open (the sale's marker at its offset).
     */
    private static void secondSale(ChaosTarget t, KafkaProducer<String, byte[]> producer, long goods) throws Exception {
        try (Connection c = t.db()) {
            for (var e : SaleRecords.orders(c, goods).entrySet())
                for (SaleRecords.OrderRow o : e.getValue())
                    if (o.live())
                        send(
                                producer,
                                t,
                                new Release(
                                        goods,
                                        o.userId(),
                                        1,
                                        o.orderId(),
                                        e.getKey(),
                                        "cancelled",
                                        "cancel-order-" + o.orderId()));
        }
        send(producer, t, new CloseSale(goods, "close-" + UUID.randomUUID()));
        Sales.open(
                producer,
                t.settings,
                Sales.started(goods, SECOND_STOCK, Duration.ofMinutes(60), 1, "open-" + UUID.randomUUID(), true),
                Duration.ofSeconds(60));
        TimeUnit.MILLISECONDS.sleep(1_000); // the gateway's view of the sale window follows Redis within a second
    }

    private static RecordMetadata send(KafkaProducer<String, byte[]> producer, ChaosTarget t, Command c)
            throws Exception {
        return producer.send(new ProducerRecord<>(t.topics.commands(), c.key(), CommandCodec.encode(c)))
                .get(30, TimeUnit.SECONDS);
    }
}
