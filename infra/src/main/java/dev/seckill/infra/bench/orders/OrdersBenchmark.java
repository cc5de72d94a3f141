package dev.seckill.infra.bench.orders;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.PreloadProducer;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.order.OrderWriterApp;
import dev.seckill.order.OrderWriterSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code ./seckill bench orders}: a 100,000-unit sale's purchases (DEDUCTED ledger entries) preloaded into {@code ledger}, then
 * timed through order-writer into MySQL; in the same run, the raw single-row and batched INSERT rates of the same DB.
 */
public final class OrdersBenchmark {
    private OrdersBenchmark() {}

    public static int run(Settings base, Flags f, ReportOutput o) throws Exception {
        PrintStream out = o.text();
        int n = (int) f.getLong("orders");
        int rawSingle = (int) f.getLong("raw-single");
        int warmup = (int) f.getCount("warmup");
        String name = "bench-orders-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Namespace ns = Namespace.create(base, name);
        Settings s = writerSettings(ns, f);
        out.printf(
                "bench orders: %,d purchases (DEDUCTED entries) of one 100k-unit sale, writer batch %s, namespace %s%n",
                n,
                s.get(OrderWriterSettings.BATCH_MAX) + (s.isSet(OrderWriterSettings.BATCH_MAX) ? "" : " (default)"),
                name);
        try {
            preload(s, new Topics(s.topicPrefix()), n, out);
            if (warmup > 0) warmUp(base, name, f, warmup, out);

            long t0 = System.nanoTime();
            double single;
            double batched;
            Written w;
            try (OrderWriterApp writer = new OrderWriterApp(s, new SimpleMeterRegistry()).start()) {
                w = awaitWritten(writer, n, t0, new ProgressBar("writing", n));
                single = rawInserts(writer.dataSource(), rawSingle, 1);
                batched = rawInserts(writer.dataSource(), n, 1000);
            }
            out.printf("%n== bench orders ==%n");
            out.printf(
                    "order-writer        %,.0f orders/s steady (first order to last), %,.0f orders/s with start-up (group join, Flyway)%n",
                    w.steady(), w.rate());
            out.printf(
                    "                    each order = order row + ledger row + stock, one DB transaction per batch%n");
            out.printf(
                    "raw single-row      %,.0f rows/s (INSERT, autocommit)   ratio %.2f%n",
                    single, w.steady() / single);
            out.printf(
                    "raw batched         %,.0f rows/s (multi-row INSERT of 1000, one table)   ratio %.2f%n",
                    batched, w.steady() / batched);
            out.printf(
                    warmup > 0
                            ? "warm-up             %,d orders written by a first writer on its own namespace before this run%n"
                            : "warm-up             none (--warmup %d): the figure includes the JIT compiling the writer%n",
                    warmup);
            o.put("orders", n)
                    .put("ordersPerSecond", w.rate())
                    .put("steadyOrdersPerSecond", w.steady())
                    .put("rawSingleRowPerSecond", single)
                    .put("rawMultiRowPerSecond", batched)
                    .put("ofRawSingleRow", w.steady() / single)
                    .put("ofRawMultiRow", w.steady() / batched);
        } finally { // also when the run fails: nothing of it stays on the stack
            ns.dropDatabase();
            out.printf(
                    "cleaned up          %d topics of this run deleted from the broker, its database %s dropped%n",
                    ns.deleteTopics(), ns.database());
        }
        return 0;
    }

    private static Settings writerSettings(Namespace ns, Flags f) {
        return f.has("batch")
                ? ns.settings().and(Map.of(OrderWriterSettings.BATCH_MAX.name(), f.get("batch", "")))
                : ns.settings();
    }

    /**
     * The same writer over {@code n} orders of a namespace of its own, before the measured run, so the JIT has compiled
     * the writer, the JDBC driver and the consumer (measured: the C2 compiler took half of the JVM's CPU through a
     * cold run); its topics and database are removed afterwards.
     */
    static void warmUp(Settings base, String name, Flags f, int n, PrintStream out) throws Exception {
        Namespace ns = Namespace.create(base, name + "-warmup");
        Settings s = writerSettings(ns, f);
        preload(s, new Topics(s.topicPrefix()), n, out);
        try (OrderWriterApp writer = new OrderWriterApp(s, new SimpleMeterRegistry()).start()) {
            awaitWritten(writer, n, System.nanoTime(), new ProgressBar("warm-up", n));
        }
        ns.dropDatabase();
        ns.deleteTopics();
    }

    /** Orders/s from {@code t0} and from the first order seen, once all {@code n} are in the DB. */
    record Written(double rate, double steady) {}

    static Written awaitWritten(OrderWriterApp writer, int n, long t0, ProgressBar bar) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        long count = 0;
        long firstSeen = 0;
        long firstCount = 0;
        while (count < n && System.nanoTime() < deadline) {
            // MAX of the auto-increment key: O(1), unlike COUNT(*), so watching does not slow the writer down
            count = count(writer.dataSource(), "SELECT COALESCE(MAX(order_id), 0) FROM purchase_order");
            if (firstSeen == 0 && count > 0) {
                firstSeen = System.nanoTime();
                firstCount = count;
            }
            bar.update(count);
            if (count < n) TimeUnit.MILLISECONDS.sleep(100);
        }
        bar.finish(count);
        long end = System.nanoTime();
        long rows = count(writer.dataSource(), "SELECT COUNT(*) FROM purchase_order");
        if (rows != n) throw new IllegalStateException("expected " + n + " orders, found " + rows);
        return new Written(n / ((end - t0) / 1e9), (n - firstCount) / ((end - firstSeen) / 1e9));
    }

    static void preload(Settings s, Topics topics, int n, PrintStream out) throws Exception {
        TopicProvisioner.ensure(s, topics);
        Instant now = Instant.now();
        ProgressBar bar = new ProgressBar("preload", n);
        try (KafkaProducer<String, byte[]> p = PreloadProducer.create(s)) {
            p.send(new ProducerRecord<>(
                            topics.ledger(),
                            "1001",
                            Json.write(LedgerEntry.of(
                                    "bench-open", 1001, LedgerType.OPENED, 100_000, null, null, null, 100_000, now))))
                    .get();
            for (int i = 0; i < n; i++) {
                LedgerEntry deducted = LedgerEntry.of(
                                LedgerEntry.deductOpId(1001, "o" + i),
                                1001,
                                LedgerType.DEDUCTED,
                                1,
                                (long) i + 1,
                                "o" + i,
                                null,
                                100_000 - i - 1,
                                now)
                        .withPurchase(i + 1, now, 0);
                p.send(new ProducerRecord<>(topics.ledger(), "1001", Json.write(deducted)));
                if ((i & 1023) == 0) bar.update(i);
            }
            p.flush();
            bar.finish(n);
        }
    }

    static long count(DataSource db, String sql) throws Exception {
        try (Connection c = db.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Rows/s of plain INSERTs into a scratch copy of purchase_order: one row per statement, or {@code perStatement} per batch. */
    static double rawInserts(DataSource db, int rows, int perStatement) throws Exception {
        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS bench_raw_insert");
            st.execute("CREATE TABLE bench_raw_insert LIKE purchase_order");
            c.setAutoCommit(perStatement == 1);
            long t0 = System.nanoTime();
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO bench_raw_insert (request_id, goods_id, user_id, quantity, "
                            + "status, live_user_id) VALUES (?, 1001, ?, 1, 'CREATED', ?)")) {
                for (int i = 0; i < rows; i++) {
                    ps.setString(1, "raw" + i);
                    ps.setLong(2, i + 1);
                    ps.setLong(3, i + 1);
                    if (perStatement == 1) {
                        ps.executeUpdate();
                    } else {
                        ps.addBatch();
                        if ((i + 1) % perStatement == 0 || i == rows - 1) {
                            ps.executeBatch();
                            c.commit();
                        }
                    }
                }
            }
            double rate = rows / ((System.nanoTime() - t0) / 1e9);
            c.setAutoCommit(true);
            st.execute("DROP TABLE bench_raw_insert");
            return rate;
        }
    }
}
