package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.BenchCommands;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.stack.KafkaFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given the pessimistic baseline as a process of its own, when {@code bench strategies} runs a small sale through it and
 * then again with the process SIGKILLed mid-sale and restarted, then both rows are in the table with the restart
 * measured, nothing oversold or sold twice, every buyer answered, the HTML page has its charts, and no database of the
 * run is left behind.
 */
class StrategiesBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void aBaselineIsMeasuredThenKilledAndRestartedMidSaleAndItsRunIsRemoved() throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        Set<String> before = strategyDatabases(base);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Path html = dir.resolve("strategies.html");

        int exit = StrategiesBenchmark.run(
                base,
                BenchCommands.BENCH_STRATEGIES.parse(new String[] {
                    "bench",
                    "strategies",
                    "--strategies",
                    "pessimistic",
                    "--stock",
                    "20",
                    "--requests",
                    "400",
                    "--concurrency",
                    "20",
                    "--users",
                    "150",
                    "--warmup",
                    "100",
                    "--html",
                    html.toString()
                }),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        assertThat(out).contains("every safety claim held");
        assertThat(out)
                .containsPattern(
                        "warm-up +[\\d,]+ answers/s on goods 2001 \\(([1-9][\\d,]*) sold, \\1 of their orders written\\)");
        assertThat(out)
                .containsPattern(
                        "pessimistic +first second: [\\d,]+ requests sent in it, time to answer p50 [\\d.]+ ms");
        String faultTable = out.substring(out.indexOf("SIGKILLed once mid-sale, then restarted"));
        String row = faultTable
                .lines()
                .filter(l -> l.startsWith("pessimistic "))
                .findFirst()
                .orElseThrow();
        assertThat(row)
                .matches(".* 0 +0 +0 +0 +0 +\\d+ +[\\d,]+ ms$"); // oversold, dup, lost, false dup, no answer; DB;
        // restart
        assertThat(Files.readString(html))
                .contains("data-points=\"1\"")
                .contains("pessimistic")
                .contains("<th>first second: sent</th>");
        assertThat(strategyDatabases(base))
                .as("databases of the run left behind")
                .isSubsetOf(before);
    }

    static Set<String> strategyDatabases(Settings base) throws Exception {
        Set<String> names = new HashSet<>();
        try (Connection c = DriverManager.getConnection(
                        JdbcUrls.withDriverDefaults(base.dbUrl()), base.dbUser(), base.dbPassword());
                ResultSet rs = c.createStatement().executeQuery("SHOW DATABASES LIKE 'seckill\\_strat\\_%'")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }
}
