package dev.seckill.infra.ops.sql;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stock.bucket.HopSeal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
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
            + " order_id BIGINT, changed_at TIMESTAMP, command_offset BIGINT, ledger_partition INTEGER, ledger_offset BIGINT,"
            + " bucket INTEGER, buckets INTEGER, bucket_partition INTEGER, bucket_peer INTEGER)";
    private static final String ORDERS = "CREATE TABLE orders (order_id BIGINT, request_id VARCHAR, goods_id BIGINT,"
            + " user_id BIGINT, quantity INTEGER, status VARCHAR, accepted_at TIMESTAMP, decided_at TIMESTAMP,"
            + " created_at TIMESTAMP, paid_at TIMESTAMP, cancelled_at TIMESTAMP, payment_id VARCHAR)";

    private final DuckDBConnection duck;
    private final RecordRows records = new RecordRows();
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
        return records.rows.getOrDefault(table, 0L);
    }

    /** Outcome or ledger records that did not parse (none is expected: only the pipeline writes them). */
    public long unreadable() {
        return records.unreadable;
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
                    if (r.topic().equals(topics.commands())) {
                        // the stream's own hops between a bucketed goods' buckets are not clients' commands
                        if (r.headers().lastHeader(HopSeal.KIND) == null) records.command(commands, r);
                    } else if (r.topic().equals(topics.ledger())) records.ledger(ledger, r);
                    else records.outcome(outcomes, r);
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
                    RecordRows.text(a, rs.getString(2));
                    a.append(rs.getLong(3));
                    a.append(rs.getLong(4));
                    a.append(rs.getInt(5));
                    RecordRows.text(a, rs.getString(6));
                    for (int c = 7; c <= 11; c++) {
                        LocalDateTime at = rs.getObject(c, LocalDateTime.class); // DATETIME(3), UTC
                        if (at == null) a.appendNull();
                        else a.append(at);
                    }
                    RecordRows.text(a, rs.getString(12));
                    a.endRow();
                    records.rows.merge("orders", 1L, Long::sum);
                }
            }
        } catch (SQLException e) {
            // no order table: a namespace whose writer never ran (its orders table stays empty)
            if (!"42S02".equals(e.getSQLState()) && !"42000".equals(e.getSQLState())) throw e;
        }
    }
}
