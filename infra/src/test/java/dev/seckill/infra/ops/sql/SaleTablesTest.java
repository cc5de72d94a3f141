package dev.seckill.infra.ops.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.ops.report.GoodsReport;
import dev.seckill.infra.ops.report.HtmlReport;
import dev.seckill.infra.ops.report.ReportSource;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a sale the pipeline decided (20 units, 600 purchases from 150 buyers through the gateway, plus an over-limit
 * purchase, a retried requestId and three buyers trying again after SOLD_OUT sent upstream), when {@code ./seckill sql} loads the namespace, then the five
 * questions of docs/operations.md ("Every sale as tables") — the very SQL blocks of that page — answer what the report
 * of the same namespace says, and the Parquet export reads back in DuckDB with every row.
 */
@Tag("light")
class SaleTablesTest {
    static final long GOODS = 5201;
    static final long SECOND_GOODS = 5202;
    static Pipeline pipeline;
    static Namespace ns;
    static SaleTables tables;
    static List<GoodsReport> reports;
    static int accepted;

    @BeforeAll
    static void sale() throws Exception {
        Settings settings = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                "gateway.port",
                "0",
                "gateway.metrics.port",
                "0",
                "topic.partitions",
                "2"));
        ns = Namespace.create(settings, "sql-" + UUID.randomUUID().toString().substring(0, 8));
        pipeline = new Pipeline(ns).start();
        try (OutcomeLog log = new OutcomeLog(ns.settings(), pipeline.topics())) {
            pipeline.openSale(GOODS, 20, Duration.ofHours(1), 1);
            pipeline.openSale(SECOND_GOODS, 3, Duration.ofHours(1), 1);
            HttpLoad.Result load = HttpLoad.run(
                    LoadSpec.closed(pipeline.gatewayPort(), GOODS, 600, 20, 150, 11, pipeline::bearer)
                            .keepingIds(),
                    n -> {});
            assertThat(load.errors()).isZero();
            Set<String> sent = new HashSet<>(load.acceptedIds());
            accepted = sent.size();
            Purchase retried = new Purchase("sql-retried", SECOND_GOODS, 7, 1, Instant.now());
            pipeline.send(retried);
            pipeline.send(retried); // the upstream service retried: one outcome
            pipeline.send(new Purchase("sql-two", SECOND_GOODS, 8, 2, Instant.now())); // REJECTED over_limit
            pipeline.send(new Purchase("sql-again", SECOND_GOODS, 7, 1, Instant.now())); // DUPLICATE
            assertThat(Drain.await(pipeline, log, GOODS, sent, Duration.ofSeconds(90), n -> {}))
                    .isTrue();
            assertThat(Drain.awaitDecided(log, Set.of("sql-retried", "sql-two", "sql-again"), Duration.ofSeconds(60)))
                    .isTrue();
            // three buyers answered SOLD_OUT try again (a new requestId each): they retried after SOLD_OUT
            List<Long> soldOut = log.snapshot().stream()
                    .filter(o -> o.goodsId() == GOODS && o.outcome() == OutcomeKind.SOLD_OUT)
                    .map(Outcome::userId)
                    .distinct()
                    .limit(3)
                    .toList();
            assertThat(soldOut).hasSize(3);
            Set<String> again = new HashSet<>();
            for (long user : soldOut) {
                Purchase p = new Purchase("sql-after-sold-out-" + user, GOODS, user, 1, Instant.now());
                pipeline.send(p);
                again.add(p.requestId());
            }
            assertThat(Drain.awaitDecided(log, again, Duration.ofSeconds(60))).isTrue();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "1"
                            .equals(pipeline.queryOne(
                                    "SELECT COUNT(*) FROM purchase_order WHERE goods_id = ?", SECOND_GOODS)));
        }
        reports = new ReportSource(ns.settings()).read(null, n -> {});
        // the same namespace's report page, to look at (headless Chromium) beside what the tables answer
        Files.writeString(Path.of("target", "sql-namespace-report.html"), HtmlReport.render(ns.name(), reports));
        long[] started = {-1};
        long[] lastRead = {-1};
        tables = SaleTables.load(ns.settings(), new SaleTables.Progress() {
            @Override
            public void started(long records) {
                started[0] = records;
            }

            @Override
            public void read(long records) {
                lastRead[0] = records;
            }
        });
        assertThat(lastRead[0]).as("progress reaches the size announced").isEqualTo(started[0]);
    }

    @AfterAll
    static void stop() throws Exception {
        if (tables != null) tables.close();
        if (pipeline != null) pipeline.close();
        ns.deleteTopics();
        ns.deleteRedisKeys();
        ns.dropDatabase();
    }

    static GoodsReport report(long goods) {
        return reports.stream().filter(r -> r.goodsId() == goods).findFirst().orElseThrow();
    }

    static List<Outcome> allOutcomes() {
        return reports.stream().flatMap(r -> r.outcomes().stream()).toList();
    }

    /** The SQL blocks of docs/operations.md's "Every sale as tables", in order. */
    static List<String> documentedQueries() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "operations.md"));
        int from = doc.indexOf("## Every sale as tables");
        String section = doc.substring(from, doc.indexOf("\n## ", from + 3));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    static List<List<Object>> rows(String sql) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Statement st = tables.connection().createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= n; c++) {
                    Object v = rs.getObject(c);
                    if (v instanceof java.sql.Timestamp) v = rs.getObject(c, LocalDateTime.class);
                    // DuckDB's sum of an INTEGER is a HUGEINT (BigInteger), its count a BIGINT: compared as longs
                    if (v instanceof java.math.BigInteger || v instanceof Integer) v = ((Number) v).longValue();
                    row.add(v);
                }
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void everyTableHasTheSalesRows() throws Exception {
        assertThat(reports).extracting(GoodsReport::goodsId).contains(GOODS, SECOND_GOODS);
        assertThat(tables.rows("outcomes")).isEqualTo(allOutcomes().size());
        assertThat(tables.unreadable()).isZero();
        long orders = reports.stream().mapToLong(GoodsReport::ordersCreated).sum();
        assertThat(tables.rows("orders")).isEqualTo(orders).isEqualTo(21);
        assertThat(rows("SELECT status, count(*) FROM orders WHERE goods_id = " + GOODS + " GROUP BY ALL"))
                .containsExactly(List.of("CREATED", 20L));
        // purchases: the 600 of the load, 4 sent upstream (one retried); two open_sale commands
        assertThat(rows("SELECT type, count(*) FROM commands GROUP BY ALL ORDER BY ALL"))
                .contains(List.of("open_sale", 2L))
                .contains(List.of("purchase", accepted + 4L + 3));
        assertThat(rows("SELECT count(*) FROM ledger WHERE type = 'DEDUCTED'")).containsExactly(List.of(21L));
        // each outcome names the command it decided
        assertThat(rows("SELECT count(*) FROM outcomes o JOIN commands c USING (command_partition, command_offset)"
                        + " WHERE c.request_id = o.request_id"))
                .containsExactly(List.of(tables.rows("outcomes")));
    }

    @Test
    void theFiveDocumentedQuestionsAnswerWhatTheReportSays() throws Exception {
        List<String> q = documentedQueries();
        assertThat(q).as("five documented questions").hasSize(5);

        // 1. buyers who retried after SOLD_OUT
        Map<Long, Set<Long>> retried = new TreeMap<>();
        List<Outcome> all = allOutcomes();
        for (Outcome s : all) {
            if (s.outcome() != OutcomeKind.SOLD_OUT) continue;
            boolean again = all.stream()
                    .anyMatch(o -> o.goodsId() == s.goodsId()
                            && o.userId() == s.userId()
                            && o.acceptedAt().isAfter(s.decidedAt()));
            if (again)
                retried.computeIfAbsent(s.goodsId(), g -> new TreeSet<>()).add(s.userId());
        }
        List<List<Object>> expected1 = new ArrayList<>();
        retried.forEach((g, users) -> expected1.add(List.of(g, (long) users.size())));
        assertThat(expected1)
                .as("the sale has buyers who retried after SOLD_OUT")
                .isNotEmpty();
        assertThat(rows(q.get(0))).isEqualTo(expected1);

        // 2. the longest waits: the report's maximum accept → decision latency first
        List<List<Object>> longest = rows(q.get(1));
        assertThat(longest).hasSize(10);
        long max =
                reports.stream().mapToLong(r -> r.latencyQuantileMs(1.0)).max().orElseThrow();
        assertThat(longest.get(0).get(6)).isEqualTo(max);
        assertThat(longest).extracting(r -> (Long) r.get(6)).isSortedAccordingTo((a, b) -> Long.compare(b, a));

        // 3. units per second: the report's SUCCESS count per goods, over the seconds it sold in
        Map<Long, Map<LocalDateTime, Long>> perSecond = new TreeMap<>();
        for (Outcome o : all)
            if (o.outcome() == OutcomeKind.SUCCESS)
                perSecond
                        .computeIfAbsent(o.goodsId(), g -> new TreeMap<>())
                        .merge(
                                LocalDateTime.ofInstant(o.decidedAt().truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC),
                                (long) o.quantity(),
                                Long::sum);
        List<List<Object>> expected3 = new ArrayList<>();
        perSecond.forEach((g, m) -> m.forEach((s, n) -> expected3.add(List.of(g, s, n))));
        List<List<Object>> units = rows(q.get(2));
        assertThat(units).isEqualTo(expected3);
        assertThat(units.stream()
                        .filter(r -> r.get(0).equals(GOODS))
                        .mapToLong(r -> (Long) r.get(2))
                        .sum())
                .isEqualTo(report(GOODS).kind(OutcomeKind.SUCCESS))
                .isEqualTo(20);

        // 4. buyers with more than one requestId, per goods
        Map<List<Long>, Set<String>> ids = new HashMap<>();
        for (Outcome o : all)
            ids.computeIfAbsent(List.of(o.goodsId(), o.userId()), k -> new HashSet<>())
                    .add(o.requestId());
        long many = ids.values().stream().filter(s -> s.size() > 1).count();
        List<List<Object>> buyers = rows(q.get(3));
        assertThat(many).as("the load has repeat buyers").isPositive();
        assertThat(buyers).hasSize((int) many);
        for (List<Object> b : buyers)
            assertThat(ids.get(List.of((Long) b.get(0), (Long) b.get(1)))).hasSize(((Long) b.get(2)).intValue());
        assertThat(buyers).contains(List.of(SECOND_GOODS, 7L, 2L));

        // 5. outcome counts per kind and reason: exactly the report's
        List<List<Object>> expected5 = new ArrayList<>();
        for (GoodsReport r : reports)
            r.byKindReason().forEach((k, n) -> {
                String[] kr = k.split("/", 2);
                expected5.add(List.of(r.goodsId(), kr[0], kr.length > 1 ? kr[1] : "", n));
            });
        assertThat(rows(q.get(4))).containsExactlyInAnyOrderElementsOf(expected5);
        assertThat(expected5)
                .contains(List.of(SECOND_GOODS, "REJECTED", "over_limit", 1L))
                .contains(List.of(SECOND_GOODS, "DUPLICATE", "", 1L));
    }

    @Test
    void theCommandAnswersAQuery_exportsParquetThatDuckDbReadsBack_andTakesStatementsFromStdin(@TempDir Path dir)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SqlCommand.run(
                ns.settings(),
                CliCommands.SQL.parse(new String[] {"sql", "--namespace", ns.name(), "--export", dir.toString()}),
                "SELECT outcome, count(*) AS n FROM outcomes WHERE goods_id = " + GOODS
                        + " AND outcome = 'SUCCESS' GROUP BY ALL",
                f -> {
                    assertThat(f.get("namespace", "")).isEqualTo(ns.name());
                    return ns.settings();
                },
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .as("stdout is the answer only")
                .isEqualTo("outcome   n\n-------  --\nSUCCESS  20\n(1 row)\n");
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("loaded     " + ns.settings().topicPrefix());
        System.out.print(err.toString(StandardCharsets.UTF_8)); // the load time and the export, in the test's output

        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement()) {
            for (String table : SaleTables.TABLES) {
                Path file = dir.resolve(table + ".parquet");
                assertThat(file).exists();
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM read_parquet('" + file + "')")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as(table + ".parquet rows").isEqualTo(tables.rows(table));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM '" + dir.resolve("outcomes.parquet")
                    + "' WHERE outcome = 'SUCCESS' AND wait_ms >= 0")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(21);
            }
        }

        out.reset();
        err.reset();
        String stdin = "SELECT count(*) AS decided\n  FROM outcomes;\n.tables\nSELECT nonsense FROM nowhere;\n";
        code = SqlCommand.prompt(
                tables,
                false,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as("one statement failed").isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("decided\n")
                .contains(" " + tables.rows("outcomes") + "\n")
                .contains("commands")
                .contains("ledger")
                .contains("orders");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: ").contains("nowhere");
    }
}
