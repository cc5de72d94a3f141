package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.kit.config.GroupIds;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A model-based test of order-writer. A plain model of stock-stream emits random per-goods histories — opens, purchases,
 * upstream cancels (by purchase and by buyer) and re-buys, payments (the provider's payment, then the stream's PAID),
 * closes, re-opens, a requestId reused in a later sale after the stream forgot it — through the real broker to a real
 * writer that lags (stopped while a burst flows), restarts, and reads again from earlier offsets (its group's offsets
 * moved back: redeliveries). Whatever the interleaving of its topics and partitions: every purchase ends with exactly
 * its order in the state the rules give it, every release with its row, DB stock = the ledger's, no dead letter.
 */
class WriterModelTest {
    private static final int GOODS = 4;
    private static final int BUYERS = 6;

    /** A purchase as the model knows it: its order's expected state. */
    private static final class Purchase {
        final long goods;
        final long user;
        final String requestId;
        final long saleOffset;
        final long commandOffset;
        String status = "CREATED";
        boolean live = true;

        Purchase(long goods, long user, String requestId, long saleOffset, long commandOffset) {
            this.goods = goods;
            this.user = user;
            this.requestId = requestId;
            this.saleOffset = saleOffset;
            this.commandOffset = commandOffset;
        }

        String key() {
            return goods + "/" + requestId + "/" + saleOffset;
        }

        String expected() {
            return status + (live ? "/live" : "/-");
        }
    }

    /** One goods as the model of the stream holds it. */
    private static final class Goods {
        final long id;
        long saleOffset = -1;
        boolean open;
        long opened;
        long stock;
        final Map<Long, Purchase> holders = new TreeMap<>();
        final List<Purchase> all = new ArrayList<>();
        final List<String> earlierRequestIds = new ArrayList<>();

        Goods(long id) {
            this.id = id;
        }
    }

    private final Map<String, Purchase> purchases = new LinkedHashMap<>();
    private long nextOffset = 1;
    private int ledgerEntries;
    private Random random;
    private WriterStack stack;
    private OrderWriterApp writer;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 29})
    void everyPurchaseEndsWithExactlyItsOrder_everyReleaseWithItsRow_dbStockIsTheLedgers(long seed) throws Exception {
        random = new Random(seed);
        try (WriterStack s = new WriterStack(2)) {
            stack = s;
            writer = start();
            Map<Long, Goods> goods = new HashMap<>();
            for (long g = 1; g <= GOODS; g++) goods.put(g, new Goods(8800 + g));
            for (int step = 0; step < 260; step++) {
                disrupt();
                act(goods.get(1L + random.nextInt(GOODS)));
            }
            if (writer == null) writer = start();
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(differences(goods.values()))
                            .as("seed " + seed + ": the database against the model")
                            .isEmpty());
            assertThat(dlqRecords()).as("seed " + seed + ": no dead letter").isZero();
            assertThat(stack.one("SELECT COUNT(*) FROM stock_ledger"))
                    .as("seed " + seed + ": every ledger entry claimed once")
                    .isEqualTo(ledgerEntries);
        } finally {
            if (writer != null) writer.close();
        }
    }

    /** What the stream would emit next for the goods, by its rules; sent in the goods' order (one partition). */
    private void act(Goods g) throws Exception {
        int roll = random.nextInt(100);
        if (!g.open) {
            // the stream opens again only once no buyer of the sale before is held unpaid (the sweeper releases them)
            Purchase unpaidHolder = g.holders.values().stream()
                    .filter(p -> !"PAID".equals(p.status))
                    .findFirst()
                    .orElse(null);
            if (unpaidHolder != null) release(g, unpaidHolder);
            else open(g);
            return;
        }
        List<Purchase> unpaid = g.holders.values().stream()
                .filter(p -> "CREATED".equals(p.status))
                .toList();
        if (roll < 50 && g.stock > 0) buy(g);
        else if (roll < 70 && !unpaid.isEmpty()) release(g, unpaid.get(random.nextInt(unpaid.size())));
        else if (roll < 82 && !unpaid.isEmpty()) pay(g, unpaid.get(random.nextInt(unpaid.size())));
        else if (roll < 88) close(g);
        else if (g.stock > 0) buy(g);
    }

    private void open(Goods g) throws Exception {
        long offset = nextOffset++;
        long units = 3 + random.nextInt(6);
        // the paid buyers of the sale before stop being live purchases: they may buy in this one
        for (Purchase p : g.holders.values()) p.live = false;
        g.holders.clear();
        g.saleOffset = offset;
        g.open = true;
        g.opened += units;
        g.stock += units;
        ledger(
                LedgerEntry.of(
                                "open-" + g.id + "-" + offset,
                                g.id,
                                LedgerType.OPENED,
                                units,
                                null,
                                null,
                                null,
                                g.stock,
                                Instant.now())
                        .withCommandOffset(offset),
                g.id);
    }

    private void close(Goods g) throws Exception {
        g.open = false;
        ledger(
                LedgerEntry.of(
                        "close-" + g.id + "-" + nextOffset++,
                        g.id,
                        LedgerType.CLOSED,
                        0,
                        null,
                        null,
                        null,
                        g.stock,
                        Instant.now()),
                g.id);
    }

    private void buy(Goods g) throws Exception {
        long user = 1 + random.nextInt(BUYERS);
        if (g.holders.containsKey(user)) return; // one live purchase per buyer: the stream answers DUPLICATE
        long offset = nextOffset++;
        String requestId = random.nextInt(10) == 0 && !g.earlierRequestIds.isEmpty()
                ? g.earlierRequestIds.get(random.nextInt(g.earlierRequestIds.size())) // reused after the stream forgot
                : "r-" + g.id + "-" + offset;
        if (g.all.stream().anyMatch(p -> p.requestId.equals(requestId) && p.saleOffset == g.saleOffset)) return;
        Purchase p = new Purchase(g.id, user, requestId, g.saleOffset, offset);
        g.stock -= 1;
        g.holders.put(user, p);
        g.all.add(p);
        purchases.put(p.key(), p);
        ledger(
                LedgerEntry.of(
                                LedgerEntry.deductOpId(g.id, requestId),
                                g.id,
                                LedgerType.DEDUCTED,
                                1,
                                user,
                                requestId,
                                null,
                                g.stock,
                                Instant.now())
                        .withPurchase(offset, Instant.now(), g.saleOffset),
                g.id);
    }

    /** An upstream cancel or order_failed: by the purchase's requestId, or (the older form) by the buyer alone. */
    private void release(Goods g, Purchase p) throws Exception {
        g.holders.remove(p.user);
        g.stock += 1;
        p.status = "CANCELLED";
        p.live = false;
        g.earlierRequestIds.add(p.requestId);
        String byRequest = random.nextBoolean() ? p.requestId : null;
        ledger(
                LedgerEntry.of(
                        "cancel-" + g.id + "-" + nextOffset++,
                        g.id,
                        LedgerType.RELEASED,
                        1,
                        p.user,
                        byRequest,
                        null,
                        g.stock,
                        Instant.now()),
                g.id);
    }

    /**
     * The provider's payment of the order (the writer takes it: PAYING, and forwards it to the stream), then the stream's
     * PAID. Needs the order's id, which only the running writer can give, as in life (a buyer pays an order they see).
     */
    private void pay(Goods g, Purchase p) throws Exception {
        if (writer == null) writer = start();
        String orderId = await().atMost(Duration.ofSeconds(60)).until(() -> orderId(p), java.util.Objects::nonNull);
        stack.send(
                stack.topics.payments(), orderId, Payment.of("pay-" + p.key(), Long.parseLong(orderId), Instant.now()));
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        "PAYING".equals(stack.text("SELECT status FROM purchase_order WHERE order_id = ?", orderId)));
        p.status = "PAID";
        g.earlierRequestIds.add(p.requestId);
        ledger(
                new LedgerEntry(
                        1,
                        "pay-order-" + orderId,
                        g.id,
                        LedgerType.PAID,
                        0,
                        p.user,
                        p.requestId,
                        Long.parseLong(orderId),
                        g.stock,
                        Instant.now(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null),
                g.id);
    }

    /** Now and then, between two emissions: the writer stops (it lags), starts again, or re-reads from earlier. */
    private void disrupt() throws Exception {
        int roll = random.nextInt(100);
        if (roll < 4 && writer != null) {
            writer.close();
            writer = null;
        } else if (roll < 10 && writer == null) {
            writer = start();
        } else if (roll < 12) {
            if (writer != null) writer.close();
            writer = null;
            rewind();
            writer = start();
        }
    }

    /** Moves the writer's committed ledger offsets back to a random earlier point: what it wrote comes again. */
    private void rewind() throws Exception {
        String group = GroupIds.orderWriter(stack.settings);
        Map<TopicPartition, OffsetAndMetadata> committed = stack.admin
                .listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> back = new HashMap<>();
        committed.forEach((tp, o) -> {
            if (tp.topic().equals(stack.topics.ledger()) && o != null && o.offset() > 0)
                back.put(tp, new OffsetAndMetadata(random.nextLong(o.offset())));
        });
        if (!back.isEmpty())
            stack.admin.alterConsumerGroupOffsets(group, back).all().get(30, TimeUnit.SECONDS);
    }

    private OrderWriterApp start() {
        return new OrderWriterApp(stack.settings, new SimpleMeterRegistry(), status -> {}).start();
    }

    private void ledger(LedgerEntry e, long goods) throws Exception {
        stack.send(stack.topics.ledger(), Long.toString(goods), e);
        ledgerEntries++;
    }

    private String orderId(Purchase p) throws Exception {
        return stack.text(
                "SELECT order_id FROM purchase_order WHERE goods_id = ? AND request_id = ? AND sale_offset = ?",
                p.goods,
                p.requestId,
                p.saleOffset);
    }

    /** Every way the database differs from the model; empty when it agrees. */
    private List<String> differences(Iterable<Goods> goods) throws Exception {
        List<String> out = new ArrayList<>();
        Map<String, String> rows = new HashMap<>();
        try (Connection c = DriverManager.getConnection(
                        TestDb.SERVER + "/" + stack.database + "?sslMode=DISABLED", "root", "");
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT goods_id, request_id, sale_offset, status, live_user_id, source_offset "
                                + "FROM purchase_order")) {
            while (rs.next()) {
                String key = rs.getLong(1) + "/" + rs.getString(2) + "/" + rs.getLong(3);
                String state = rs.getString(4) + (rs.getObject(5) == null ? "/-" : "/live") + "@" + rs.getLong(6);
                if (rows.put(key, state) != null) out.add("two orders for " + key);
            }
        }
        for (Purchase p : purchases.values()) {
            String row = rows.remove(p.key());
            String expected = p.expected() + "@" + p.commandOffset;
            if (!expected.equals(row)) out.add(p.key() + ": expected " + expected + ", found " + row);
        }
        rows.forEach((k, v) -> out.add("an order the model has not: " + k + " " + v));
        for (Goods g : goods) {
            String sale = stack.text("SELECT CONCAT(opened_stock, '/', stock) FROM sale WHERE goods_id = ?", g.id);
            String expected = g.opened == 0 ? null : g.opened + "/" + g.stock;
            if (expected != null && !expected.equals(sale))
                out.add("goods " + g.id + " opened/stock: expected " + expected + ", found " + sale);
        }
        return out;
    }

    private long dlqRecords() throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        stack.admin
                .describeTopics(List.of(stack.topics.dlq()))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .forEach((name, d) -> d.partitions()
                        .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        return stack.admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                .mapToLong(i -> i.offset())
                .sum();
    }
}
