package dev.seckill.infra.sql;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.KafkaClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * One namespace as tables in an in-memory DuckDB: {@code outcomes}, {@code commands} and {@code ledger} read from their
 * topics from the beginning to the end offsets taken when loading starts (read_committed), and {@code orders} from the
 * database's {@code purchase_order}. Times are UTC {@code TIMESTAMP}s (millisecond precision). What each column means
 * is in docs/operations.md ("Every sale as tables"). A record that does not parse is counted in {@link #unreadable()}
 * (a command that does not parse is a {@code poison} row of {@code commands}, as the pipeline sees it).
 */
public final class SaleTables implements AutoCloseable {
    /** The tables, in the order they are loaded and exported. */
    public static final List<String> TABLES = List.of("outcomes", "commands", "ledger", "orders");

    private static final String OUTCOMES = "CREATE TABLE outcomes (request_id VARCHAR, goods_id BIGINT, user_id BIGINT,"
            + " quantity INTEGER, outcome VARCHAR, reason VARCHAR, stock_after BIGINT, accepted_at TIMESTAMP,"
            + " decided_at TIMESTAMP, wait_ms BIGINT, detail VARCHAR, held_request_id VARCHAR,"
            + " command_partition INTEGER, command_offset BIGINT)";
    private static final String COMMANDS = "CREATE TABLE commands (command_partition INTEGER, command_offset BIGINT,"
            + " appended_at TIMESTAMP, type VARCHAR, goods_id BIGINT, request_id VARCHAR, user_id BIGINT,"
            + " quantity BIGINT, accepted_at TIMESTAMP, op_id VARCHAR, order_id BIGINT, payment_id VARCHAR,"
            + " reason VARCHAR, starts_at TIMESTAMP, ends_at TIMESTAMP, per_user_limit INTEGER, problem VARCHAR)";
    private static final String LEDGER = "CREATE TABLE ledger (op_id VARCHAR, goods_id BIGINT, type VARCHAR,"
            + " quantity BIGINT, stock_delta BIGINT, stock_after BIGINT, user_id BIGINT, request_id VARCHAR,"
            + " order_id BIGINT, changed_at TIMESTAMP, command_offset BIGINT, ledger_partition INTEGER, ledger_offset BIGINT)";
    private static final String ORDERS = "CREATE TABLE orders (order_id BIGINT, request_id VARCHAR, goods_id BIGINT,"
            + " user_id BIGINT, quantity INTEGER, status VARCHAR, accepted_at TIMESTAMP, decided_at TIMESTAMP,"
            + " created_at TIMESTAMP, paid_at TIMESTAMP, cancelled_at TIMESTAMP, payment_id VARCHAR)";

    private final DuckDBConnection duck;
    private final Map<String, Long> rows = new HashMap<>();
    private long unreadable;
    private long loadMillis;

    private SaleTables(DuckDBConnection duck) {
        this.duck = duck;
    }

    /** The size of what {@link #load} will read: the records between the topics' first and end offsets. */
    public interface Progress {
        void started(long records);

        void read(long records);

        Progress NONE = new Progress() {
            @Override
            public void started(long records) {}

            @Override
            public void read(long records) {}
        };
    }

    /** Reads the namespace of {@code settings} into a new in-memory DuckDB. */
    public static SaleTables load(Settings settings, Progress progress) throws SQLException {
        long start = System.nanoTime();
        SaleTables t = new SaleTables((DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:"));
        try {
            try (Statement st = t.duck.createStatement()) {
                for (String ddl : List.of(OUTCOMES, COMMANDS, LEDGER, ORDERS)) st.execute(ddl);
            }
            t.readTopics(settings, progress);
            t.readOrders(settings);
        } catch (SQLException | RuntimeException e) {
            t.close();
            throw e;
        }
        t.loadMillis = (System.nanoTime() - start) / 1_000_000;
        return t;
    }

    /** The DuckDB connection holding the tables: ask it anything. */
    public Connection connection() {
        return duck;
    }

    /** Rows loaded into {@code table}. */
    public long rows(String table) {
        return rows.getOrDefault(table, 0L);
    }

    /** Outcome or ledger records that did not parse (none is expected: only the pipeline writes them). */
    public long unreadable() {
        return unreadable;
    }

    public long loadMillis() {
        return loadMillis;
    }

    /** Writes each table as {@code DIR/<table>.parquet} (zstd); returns the files. */
    public List<Path> exportParquet(Path dir) throws Exception {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        try (Statement st = duck.createStatement()) {
            for (String table : TABLES) {
                Path file = dir.resolve(table + ".parquet").toAbsolutePath();
                st.execute("COPY " + table + " TO '" + file.toString().replace("'", "''")
                        + "' (FORMAT parquet, COMPRESSION zstd)");
                files.add(file);
            }
        }
        return files;
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }

    private void readTopics(Settings settings, Progress progress) throws SQLException {
        Topics topics = new Topics(settings.topicPrefix());
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(
                        settings,
                        Map.of(
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed",
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                false,
                                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                                5000));
                DuckDBAppender outcomes = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "outcomes");
                DuckDBAppender commands = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "commands");
                DuckDBAppender ledger = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "ledger")) {
            List<String> names = new ArrayList<>(topics.outcomes());
            names.add(topics.commands());
            names.add(topics.ledger());
            Map<String, List<PartitionInfo>> existing = consumer.listTopics(Duration.ofSeconds(30));
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : names)
                for (PartitionInfo p : existing.getOrDefault(topic, List.of()))
                    parts.add(new TopicPartition(topic, p.partition()));
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long total =
                    parts.stream().mapToLong(tp -> end.get(tp) - begin.get(tp)).sum();
            progress.started(total);
            List<TopicPartition> open = new ArrayList<>(parts);
            open.removeIf(tp -> end.get(tp) <= begin.get(tp));
            consumer.pause(parts.stream().filter(tp -> !open.contains(tp)).toList());
            while (!open.isEmpty()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) continue;
                    if (r.topic().equals(topics.commands())) command(commands, r);
                    else if (r.topic().equals(topics.ledger())) ledger(ledger, r);
                    else outcome(outcomes, r);
                }
                List<TopicPartition> done = open.stream()
                        .filter(tp -> consumer.position(tp) >= end.get(tp))
                        .toList();
                if (!done.isEmpty()) {
                    consumer.pause(done);
                    open.removeAll(done);
                }
                long read = parts.stream()
                        .mapToLong(tp -> Math.min(end.get(tp), consumer.position(tp)) - begin.get(tp))
                        .sum();
                progress.read(read);
            }
        }
    }

    private void outcome(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        Outcome o = parse(r.value(), Outcome.class);
        if (o == null) return;
        a.beginRow();
        text(a, o.requestId());
        a.append(o.goodsId());
        a.append(o.userId());
        a.append(o.quantity());
        text(a, o.outcome() == null ? null : o.outcome().name());
        text(a, o.reason());
        a.append(o.stockAfter());
        time(a, o.acceptedAt());
        time(a, o.decidedAt());
        number(
                a,
                o.acceptedAt() == null || o.decidedAt() == null
                        ? null
                        : Duration.between(o.acceptedAt(), o.decidedAt()).toMillis());
        text(a, o.detail());
        text(a, o.heldRequestId());
        a.append(o.partition());
        a.append(o.offset());
        a.endRow();
        rows.merge("outcomes", 1L, Long::sum);
    }

    private void ledger(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        LedgerEntry e = parse(r.value(), LedgerEntry.class);
        if (e == null) return;
        a.beginRow();
        text(a, e.opId());
        a.append(e.goodsId());
        text(a, e.type() == null ? null : e.type().name());
        a.append(e.quantity());
        number(a, e.type() == null ? null : e.stockDelta());
        a.append(e.stockAfter());
        number(a, e.userId());
        text(a, e.requestId());
        number(a, e.orderId());
        time(a, e.at());
        number(a, e.commandOffset());
        a.append(r.partition());
        a.append(r.offset());
        a.endRow();
        rows.merge("ledger", 1L, Long::sum);
    }

    /** One row per record of the commands topic, whatever it is: the columns a command type has not are null. */
    private void command(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        ParsedCommand parsed = CommandCodec.decode(r.value());
        // type, goods, request, user, quantity, accepted, op, order, payment, reason, starts, ends, limit, problem
        Object[] v;
        if (parsed instanceof ParsedCommand.Valid valid) {
            Command c = valid.command();
            if (c instanceof Purchase p) {
                v = row("purchase", p.goodsId(), p.requestId(), p.userId(), (long) p.quantity());
                v[5] = p.acceptedAt();
            } else if (c instanceof OpenSale o) {
                v = row("open_sale", o.goodsId(), null, null, o.stock());
                v[6] = o.opId();
                v[10] = o.startAt();
                v[11] = o.endAt();
                v[12] = o.perUserLimit();
                if (o.force()) v[9] = "force";
            } else if (c instanceof Release rel) {
                v = row("release", rel.goodsId(), rel.requestId(), rel.userId(), (long) rel.quantity());
                v[6] = rel.opId();
                v[7] = rel.orderId();
                v[9] = rel.reason();
            } else if (c instanceof Pay p) {
                v = row("pay", p.goodsId(), p.requestId(), p.userId(), null);
                v[6] = p.opId();
                v[7] = p.orderId();
                v[8] = p.paymentId();
            } else {
                v = row(c instanceof CloseSale ? "close_sale" : "restore", c.goodsId(), null, null, null);
                v[6] = c.idempotencyId();
            }
        } else if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            v = row("invalid_purchase", ip.goodsId(), ip.requestId(), ip.userId(), (long) ip.quantity());
            v[5] = ip.acceptedAt();
            v[13] = ip.reason();
        } else {
            v = row("poison", goodsOfKey(r.key()), null, null, null);
            v[13] = ((ParsedCommand.Poison) parsed).reason();
        }
        a.beginRow();
        a.append(r.partition());
        a.append(r.offset());
        time(a, r.timestamp() < 0 ? null : Instant.ofEpochMilli(r.timestamp()));
        text(a, (String) v[0]);
        number(a, (Long) v[1]);
        text(a, (String) v[2]);
        number(a, (Long) v[3]);
        number(a, (Long) v[4]);
        time(a, (Instant) v[5]);
        text(a, (String) v[6]);
        number(a, (Long) v[7]);
        text(a, (String) v[8]);
        text(a, (String) v[9]);
        time(a, (Instant) v[10]);
        time(a, (Instant) v[11]);
        if (v[12] == null) a.appendNull();
        else a.append((int) (Integer) v[12]);
        text(a, (String) v[13]);
        a.endRow();
        rows.merge("commands", 1L, Long::sum);
    }

    private static Object[] row(String type, Long goods, String requestId, Long user, Long quantity) {
        Object[] v = new Object[14];
        v[0] = type;
        v[1] = goods;
        v[2] = requestId;
        v[3] = user;
        v[4] = quantity;
        return v;
    }

    private static Long goodsOfKey(String key) {
        try {
            return key == null ? null : Long.valueOf(key);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void readOrders(Settings settings) throws SQLException {
        String sql = "SELECT order_id, request_id, goods_id, user_id, quantity, status, accepted_at, decided_at,"
                + " created_at, paid_at, cancelled_at, payment_id FROM purchase_order";
        try (Connection db = DriverManager.getConnection(
                        JdbcUrls.withDriverDefaults(settings.dbUrl()), settings.dbUser(), settings.dbPassword());
                PreparedStatement ps = db.prepareStatement(sql);
                DuckDBAppender a = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "orders")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    a.beginRow();
                    a.append(rs.getLong(1));
                    text(a, rs.getString(2));
                    a.append(rs.getLong(3));
                    a.append(rs.getLong(4));
                    a.append(rs.getInt(5));
                    text(a, rs.getString(6));
                    for (int c = 7; c <= 11; c++) {
                        LocalDateTime at = rs.getObject(c, LocalDateTime.class); // DATETIME(3), UTC
                        if (at == null) a.appendNull();
                        else a.append(at);
                    }
                    text(a, rs.getString(12));
                    a.endRow();
                    rows.merge("orders", 1L, Long::sum);
                }
            }
        } catch (SQLException e) {
            // no order table: a namespace whose writer never ran (its orders table stays empty)
            if (!"42S02".equals(e.getSQLState()) && !"42000".equals(e.getSQLState())) throw e;
        }
    }

    private <T> T parse(byte[] value, Class<T> type) {
        try {
            return Json.read(value, type);
        } catch (RuntimeException e) {
            unreadable++;
            return null;
        }
    }

    private static void text(DuckDBAppender a, String s) throws SQLException {
        if (s == null) a.appendNull();
        else a.append(s);
    }

    private static void number(DuckDBAppender a, Long n) throws SQLException {
        if (n == null) a.appendNull();
        else a.append((long) n);
    }

    private static void time(DuckDBAppender a, Instant t) throws SQLException {
        if (t == null) a.appendNull();
        else a.append(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
}
