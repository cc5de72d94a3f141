package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.reconcile.ReconcilerApp;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/** The reconciler over the real stack: no false positives, repairs of tampered sources, Redis wiped mid-sale. */
class ReconcilerTest {
    final Random random = new Random(66);

    static Settings base() {
        return TestNamespaces.inProcess(4);
    }

    static String one(Pipeline p, String sql, Object... args) throws Exception {
        try (Connection c = p.db().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    Set<String> wave(Pipeline p, long goods, String tag, int n, int users) {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String id = tag + "-" + i;
            p.send(new Purchase(id, goods, 1 + random.nextInt(users), 1, Instant.now()));
            ids.add(id);
        }
        return ids;
    }

    Reconciler reconciler(Pipeline p, KafkaProducer<String, byte[]> producer, boolean dryRun) throws Exception {
        return new Reconciler(p.namespace().settings(), p.db(), p.redis(), producer, new SimpleMeterRegistry(), dryRun);
    }

    static KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(
                Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    @Test
    void aCleanSaleReportsNoDriftAndRepairsNothingAcrossTwentyCycles() throws Exception {
        long goods = 6101;
        try (Pipeline p = new Pipeline(TestNamespaces.create(
                                base(),
                                "rec-clean-" + UUID.randomUUID().toString().substring(0, 6)))
                        .start();
                var producer = producer();
                Reconciler r = reconciler(p, producer, false)) {
            p.openSale(goods, 40, Duration.ofHours(1), 1);
            int cycles = 0;
            Set<String> verdicts = new HashSet<>();
            for (int w = 0; w < 10; w++) {
                wave(p, goods, "clean" + w, 15, 120);
                for (int k = 0; k < 2; k++, cycles++) {
                    List<Reconciler.Row> rows = r.cycle(goods);
                    assertThat(rows)
                            .allSatisfy(row ->
                                    assertThat(row.repairs()).as(row.toString()).isEmpty());
                    rows.forEach(row -> verdicts.add(row.verdict()));
                }
            }
            assertThat(cycles).isGreaterThanOrEqualTo(20);
            assertThat(verdicts).isSubsetOf("OK", "IN_FLIGHT");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(r.cycle(goods))
                            .singleElement()
                            .extracting(Reconciler.Row::verdict)
                            .isEqualTo("OK"));
            assertThat(one(p, "SELECT COUNT(*) FROM reconcile_audit")).isEqualTo("0");
            String folded = one(
                    p,
                    "SELECT CONCAT(opened, '/', deducted, '/', released) FROM reconcile_fold WHERE goods_id = ?",
                    goods);
            // a restarted reconciler goes on from its stored offsets: re-reading the ledger would double the fold
            try (Reconciler restarted = reconciler(p, producer, false)) {
                assertThat(restarted.cycle(goods))
                        .singleElement()
                        .extracting(Reconciler.Row::verdict)
                        .isEqualTo("OK");
            }
            assertThat(one(
                            p,
                            "SELECT CONCAT(opened, '/', deducted, '/', released) FROM reconcile_fold WHERE goods_id = ?",
                            goods))
                    .isEqualTo(folded);
        }
    }

    @Test
    void aDeletedOrderIsRecreated_aStrayOrderFlagged_andTamperedRedisStockCorrected() throws Exception {
        long goods = 6102;
        try (Pipeline p = new Pipeline(TestNamespaces.create(
                                base(),
                                "rec-fix-" + UUID.randomUUID().toString().substring(0, 6)))
                        .start();
                OutcomeLog log = new OutcomeLog(KafkaFixture.settings(), p.topics());
                var producer = producer();
                Reconciler r = reconciler(p, producer, false)) {
            p.openSale(goods, 10, Duration.ofHours(1), 1);
            Set<String> ids = wave(p, goods, "fix", 30, 25);
            assertThat(Drain.await(p, log, goods, ids, Duration.ofSeconds(60), n -> {}))
                    .isTrue();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(r.cycle(goods))
                            .singleElement()
                            .extracting(Reconciler.Row::verdict)
                            .isEqualTo("OK"));

            String victim =
                    one(p, "SELECT request_id FROM purchase_order WHERE goods_id = ? ORDER BY order_id LIMIT 1", goods);
            try (Connection c = p.db().getConnection()) {
                c.createStatement().executeUpdate("DELETE FROM purchase_order WHERE request_id = '" + victim + "'");
                c.createStatement()
                        .executeUpdate(
                                "INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, status, live_user_id) "
                                        + "VALUES ('stray-1', " + goods + ", 9999, 1, 'CREATED', 9999)");
            }
            p.redis().set(p.keys().stock(goods), "999");

            List<Reconciler.Row> rows = r.cycle(goods);
            assertThat(rows.get(0).repairs())
                    .anyMatch(x -> x.startsWith("missing_order"))
                    .anyMatch(x -> x.startsWith("stray_order"))
                    .anyMatch(x -> x.startsWith("redis_drift"));
            assertThat(one(p, "SELECT COUNT(*) FROM purchase_order WHERE request_id = ?", victim))
                    .as("re-created")
                    .isEqualTo("1");
            assertThat(one(p, "SELECT COUNT(*) FROM purchase_order WHERE request_id = 'stray-1'"))
                    .as("flagged, never deleted")
                    .isEqualTo("1");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "0".equals(p.redis().get(p.keys().stock(goods))));
            assertThat(one(
                            p,
                            "SELECT GROUP_CONCAT(DISTINCT kind ORDER BY kind) FROM reconcile_audit WHERE goods_id = ?",
                            goods))
                    .isEqualTo("missing_order,redis_drift,stray_order");
            String report = Reconciler.render(r.cycle(goods));
            assertThat(report).contains(Long.toString(goods));
            assertThat(r.cycle(goods).get(0).repairs())
                    .as("a flagged stray is not flagged again")
                    .isEmpty();
        }
    }

    @Test
    void redisWipedMidSale_isDetectedAndRestored_andTheSaleEndsCorrect() throws Exception {
        long goods = 6103;
        try (RedisServer own = RedisServer.onFreePort().start()) {
            Namespace ns = TestNamespaces.create(
                    base().and(Map.of(Settings.REDIS_URL, own.url(), "reconcile.interval.ms", "300")),
                    "rec-wipe-" + UUID.randomUUID().toString().substring(0, 6));
            try (Pipeline p = new Pipeline(ns).start();
                    OutcomeLog log = new OutcomeLog(KafkaFixture.settings(), p.topics());
                    ReconcilerApp reconciler =
                            new ReconcilerApp(p.namespace().settings(), new SimpleMeterRegistry()).start()) {
                p.openSale(goods, 60, Duration.ofHours(1), 1);
                Set<String> sent = new HashSet<>(wave(p, goods, "before", 40, 200));
                assertThat(Drain.await(p, log, goods, sent, Duration.ofSeconds(60), n -> {}))
                        .isTrue();

                p.redis().flushAll(); // "Redis crashed or the keys expired"
                // one restore: as drift of a settled goods, or as a wipe if the cycle saw its partition in flight
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> "1"
                                .equals(one(
                                        p,
                                        "SELECT COUNT(*) FROM reconcile_audit WHERE goods_id = ?"
                                                + " AND kind IN ('redis_drift', 'redis_wiped')",
                                        goods)));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> p.redis().get(p.keys().stock(goods)) != null);

                sent.addAll(wave(p, goods, "after", 200, 200));
                assertThat(Drain.await(p, log, goods, sent, Duration.ofSeconds(90), n -> {}))
                        .isTrue();
                SaleAudit audit = SaleAudit.of(p, goods, sent, log.snapshot());
                assertThat(audit.violations).isEmpty();
                assertThat(audit.oversold).isZero();
                assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS))
                        .as("the sale went on to sell out after the restore")
                        .isEqualTo(60);
            }
        }
    }

    /**
     * (chaos, redis-restart) A wipe while the partition is busy. stock-stream rebuilds a wiped sale itself at
     * its next purchase (WipedSalesTest); a goods nobody buys after the wipe is the reconciler's — and its partition,
     * shared with a busy goods, is never settled (a command arrives in every cycle). Before this fix the reconciler
     * waited for quiet and the quiet goods stayed wiped for as long as its neighbour's traffic lasted. A wipe cannot
     * come from work in flight, and the restore is rebuilt by the stream at its serial position, so it is sent at once.
     */
    @Test
    void redisWipedWhileItsPartitionIsBusy_isRestoredWithoutWaitingForQuiet() throws Exception {
        long goods = 6104;
        long busyGoods = sharingPartitionWith(goods, base().get(SharedSettings.TOPIC_PARTITIONS));
        try (RedisServer own = RedisServer.onFreePort().start()) {
            Namespace ns = TestNamespaces.create(
                    base().and(Map.of(Settings.REDIS_URL, own.url(), "reconcile.interval.ms", "300")),
                    "rec-busy-" + UUID.randomUUID().toString().substring(0, 6));
            try (Pipeline p = new Pipeline(ns).start();
                    OutcomeLog log = new OutcomeLog(KafkaFixture.settings(), p.topics());
                    ReconcilerApp reconciler =
                            new ReconcilerApp(p.namespace().settings(), new SimpleMeterRegistry()).start()) {
                p.openSale(goods, 50, Duration.ofHours(1), 1);
                p.openSale(busyGoods, 5_000, Duration.ofHours(1), 1);
                Set<String> sent = new HashSet<>(wave(p, goods, "before", 20, 10_000));
                assertThat(Drain.await(p, log, goods, sent, Duration.ofSeconds(60), n -> {}))
                        .isTrue();

                Set<String> busy = ConcurrentHashMap.newKeySet();
                AtomicInteger offered = new AtomicInteger();
                // one purchase of the busy goods every 20 ms (a fixed-rate schedule, 3,000 at most)
                ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor();
                traffic.scheduleAtFixedRate(
                        () -> {
                            int i = offered.getAndIncrement();
                            if (i >= 3_000) return;
                            String id = "busy-" + i;
                            p.send(new Purchase(id, busyGoods, 20_000 + i, 1, Instant.now()));
                            busy.add(id);
                        },
                        0,
                        20,
                        TimeUnit.MILLISECONDS);
                try {
                    p.redis().flushAll(); // Redis restarted without persistence, in the middle of the traffic
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> p.redis().get(p.keys().stock(goods)) != null);
                    assertThat(offered.get())
                            .as("restored while the partition was still busy")
                            .isLessThan(3_000);
                    assertThat(one(
                                    p,
                                    "SELECT COUNT(*) FROM reconcile_audit WHERE goods_id = ? AND kind = 'redis_wiped'",
                                    goods))
                            .isNotEqualTo("0");
                } finally {
                    traffic.shutdown();
                    assertThat(traffic.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
                }
                sent.addAll(wave(p, goods, "after", 100, 10_000));
                assertThat(Drain.await(p, log, goods, sent, Duration.ofSeconds(90), n -> {}))
                        .isTrue();
                SaleAudit audit = SaleAudit.of(p, goods, sent, log.snapshot());
                assertThat(audit.violations).isEmpty();
                assertThat(audit.oversold).isZero();
                assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS))
                        .as("the quiet goods sold out after its restore")
                        .isEqualTo(50);
                assertThat(Drain.await(p, log, busyGoods, busy, Duration.ofSeconds(90), n -> {}))
                        .as("the busy goods' purchases were all decided (the stream restored it itself)")
                        .isTrue();
            }
        }
    }

    /** Another goods id whose commands go to the same partition as {@code goods}'s (the producer's murmur2 of the key). */
    static long sharingPartitionWith(long goods, int n) {
        int target = Utils.toPositive(Utils.murmur2(Long.toString(goods).getBytes(StandardCharsets.UTF_8))) % n;
        for (long g = goods + 1; ; g++)
            if (Utils.toPositive(Utils.murmur2(Long.toString(g).getBytes(StandardCharsets.UTF_8))) % n == target)
                return g;
    }

    /**
     * A short sale's whole life. It sells, its unpaid orders time out and give their units back, it
     * ends, and a grace later Redis retires its keys. From then on the reconciler reports the goods ENDED — not drift —
     * and repairs nothing, cycle after cycle (before: a restore every cycle, each a RESTORED ledger entry and an audit
     * row). The goods then opens again without force, and every source agrees about the new sale.
     */
    @Test
    void aShortSaleLivesThroughItsExpiry_isEndedNotDrift_andItsGoodsOpensAgainWithoutForce() throws Exception {
        long goods = 6104;
        Namespace ns = TestNamespaces.create(
                base().and(Map.of(
                        KeyLifetime.GRACE_SETTING,
                        "8000",
                        "writer.payment.timeout.ms",
                        "1000",
                        "writer.sweep.interval.ms",
                        "200")),
                "rec-end-" + UUID.randomUUID().toString().substring(0, 6));
        try (Pipeline p = new Pipeline(ns).start();
                OutcomeLog log = new OutcomeLog(KafkaFixture.settings(), p.topics());
                var producer = producer();
                Reconciler r = reconciler(p, producer, false)) {
            p.openSale(goods, 5, Duration.ofSeconds(3), 1);
            Set<String> ids = wave(p, goods, "short", 12, 8);
            // one buyer pays the moment the order exists (the payment counts by its own time, within the 1 s timeout)
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> one(
                                    p,
                                    "SELECT order_id FROM purchase_order WHERE goods_id = ? "
                                            + "ORDER BY order_id LIMIT 1",
                                    goods)
                            != null);
            String paidOrder =
                    one(p, "SELECT order_id FROM purchase_order WHERE goods_id = ? ORDER BY order_id LIMIT 1", goods);
            long paidUser = Long.parseLong(one(p, "SELECT user_id FROM purchase_order WHERE order_id = ?", paidOrder));
            producer.send(new ProducerRecord<>(
                            p.topics().payments(),
                            paidOrder,
                            Json.write(Payment.of("pay-" + paidOrder, Long.parseLong(paidOrder), Instant.now()))))
                    .get();
            assertThat(Drain.await(p, log, goods, ids, Duration.ofSeconds(60), n -> {}))
                    .isTrue();
            // nobody else pays: every other order is cancelled by the payment timeout and its unit released while the
            // keys live
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "1"
                                    .equals(one(
                                            p,
                                            "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND live_user_id IS NOT NULL",
                                            goods))
                            && "4".equals(p.redis().get(p.keys().stock(goods))));
            assertThat(one(p, "SELECT status FROM purchase_order WHERE order_id = ?", paidOrder))
                    .isEqualTo("PAID");
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(r.cycle(goods))
                            .singleElement()
                            .extracting(Reconciler.Row::verdict)
                            .isEqualTo("OK"));

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> p.keys().goodsKeys(goods).stream()
                            .noneMatch(k -> p.redis().exists(k)));
            for (int cycle = 0; cycle < 3; cycle++) {
                Reconciler.Row row = r.cycle(goods).get(0);
                assertThat(row.verdict()).as(row.toString()).isEqualTo("ENDED");
                assertThat(row.repairs()).as("an ended sale is not restored").isEmpty();
            }
            assertThat(r.goodsWithGauges())
                    .as("an ended sale's drift gauges are removed")
                    .doesNotContain(goods);
            assertThat(one(p, "SELECT COUNT(*) FROM reconcile_audit WHERE goods_id = ?", goods))
                    .isEqualTo("0");
            assertThat(p.keys().goodsKeys(goods).stream()
                            .noneMatch(k -> p.redis().exists(k)))
                    .as("nothing re-created")
                    .isTrue();

            p.open(Sales.started(goods, 4, Duration.ofHours(1), 1, "reopen-" + goods));
            assertThat(p.redis().get(p.keys().stock(goods))).isEqualTo("4");
            Set<String> again = wave(p, goods, "again", 6, 8);
            // the buyer who paid in the last sale buys in this one: the paid order no longer makes them a live buyer
            p.send(new Purchase("again-paid", goods, paidUser, 1, Instant.now()));
            again.add("again-paid");
            assertThat(Drain.await(p, log, goods, again, Duration.ofSeconds(60), n -> {}))
                    .isTrue();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(r.cycle(goods))
                            .singleElement()
                            .extracting(Reconciler.Row::verdict)
                            .isEqualTo("OK"));
            assertThat(one(p, "SELECT status FROM purchase_order WHERE order_id = ?", paidOrder))
                    .as("still paid")
                    .isEqualTo("PAID");
            assertThat(one(p, "SELECT COUNT(*) FROM purchase_order WHERE request_id = 'again-paid'"))
                    .as("a SUCCESS or not, the paid buyer's new purchase was decided and is consistent")
                    .isIn("0", "1");
            // nobody pays in this sale either: the payment timeout releases every unit it sold, in Redis at once and
            // in the DB once the ledger entry is read, so the two are compared when the releases are all through
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(List.of(
                                    p.redis().get(p.keys().stock(goods)),
                                    one(p, "SELECT stock FROM sale WHERE goods_id = ?", goods)))
                            .as("Redis and the DB, which counts the new sale from the ledger, after every release")
                            .containsExactly("4", "4"));
            assertThat(one(p, "SELECT COUNT(*) FROM reconcile_audit WHERE goods_id = ?", goods))
                    .isEqualTo("0");
        }
    }

    /**
     * Regression (found by AlertsThroughPrometheusTest): the ledger-lag gauge asked the fold's KafkaConsumer for end
     * offsets from the scrape's thread, so a Prometheus scrape during a cycle failed the cycle with
     * ConcurrentModificationException. Given scrapes in a tight loop on another thread, twenty cycles over a live sale
     * all complete, and the gauge shows the last cycle's lag (0 once caught up).
     */
    @Test
    void scrapesDuringCyclesNeverDisturbACycle() throws Exception {
        long goods = 6401;
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Pipeline p = new Pipeline(TestNamespaces.create(
                                base(),
                                "rec-scrape-" + UUID.randomUUID().toString().substring(0, 6)))
                        .start();
                var producer = producer();
                Reconciler r = new Reconciler(p.namespace().settings(), p.db(), p.redis(), producer, registry, true)) {
            p.openSale(goods, 30, Duration.ofHours(1), 1);
            AtomicBoolean scraping = new AtomicBoolean(true);
            AtomicReference<Throwable> scrapeFailed = new AtomicReference<>();
            AtomicLong scrapes = new AtomicLong();
            Thread scraper = new Thread(() -> {
                while (scraping.get()) {
                    try {
                        registry.scrape();
                        scrapes.incrementAndGet();
                    } catch (Throwable t) {
                        scrapeFailed.compareAndSet(null, t);
                    }
                }
            });
            scraper.start();
            try {
                for (int cycle = 0; cycle < 20; cycle++) {
                    wave(p, goods, "scrape" + cycle, 5, 200);
                    r.cycle(goods);
                }
            } finally {
                scraping.set(false);
                scraper.join(10_000);
            }
            assertThat(scrapeFailed.get()).isNull();
            assertThat(scrapes.get()).as("scrapes that ran during the cycles").isGreaterThan(20);
            await().atMost(Duration.ofSeconds(60)).pollInSameThread().until(() -> {
                r.cycle(goods);
                return registry.get("seckill_reconcile_ledger_lag").gauge().value() == 0;
            });
        }
    }

    /**
     * Regression (found by AlertsThroughPrometheusTest): two reconcilers on one database — a rolling update, or an
     * operator's {@code ./seckill reconcile --repair} beside the running service — each folded every ledger entry into
     * the shared fold, so the ledger's stock doubled, both reported drift that was not there, and a repair would have
     * restored Redis to a wrong stock. Given two reconcilers cycling in turn and at once over a live sale, the fold
     * counts each entry once: opened = the stock, deducted = the SUCCESS outcomes, no drift.
     */
    @Test
    void twoReconcilersOnOneDatabaseFoldEveryLedgerEntryOnce() throws Exception {
        long goods = 6501;
        try (Pipeline p = new Pipeline(TestNamespaces.create(
                                base(),
                                "rec-two-" + UUID.randomUUID().toString().substring(0, 6)))
                        .start();
                var producer = producer();
                Reconciler first = reconciler(p, producer, true);
                Reconciler second = reconciler(p, producer, true)) {
            p.openSale(goods, 25, Duration.ofHours(1), 1);
            for (int w = 0; w < 6; w++) {
                wave(p, goods, "two" + w, 8, 400);
                first.cycle(goods);
                CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                    try {
                        second.cycle(goods); // at once with the first's next cycle
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                first.cycle(goods);
                other.join();
            }
            await().atMost(Duration.ofSeconds(60)).pollInSameThread().untilAsserted(() -> {
                Reconciler.Row a = first.cycle(goods).get(0);
                Reconciler.Row b = second.cycle(goods).get(0);
                String sold = one(
                        p, "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ? AND status <> 'CANCELLED'", goods);
                assertThat(a.drift().opened()).isEqualTo(25);
                assertThat(a.drift().deducted()).isEqualTo(Long.parseLong(sold));
                assertThat(a.drift().ledgerStock()).isEqualTo(25 - Long.parseLong(sold));
                assertThat(b.drift()).isEqualTo(a.drift());
                assertThat(a.repairs()).isEmpty();
            });
        }
    }
}
