package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.infra.cli.BenchCommands;
import dev.seckill.infra.harness.ReportOutput;
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
 * measured, nothing oversold or sold twice, every buyer answered, the HTML page has its charts, {@code --json} gives the
 * same figures as one document, and no database of the run is left behind.
 */
class StrategiesBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void aBaselineIsMeasuredThenKilledAndRestartedMidSaleAndItsRunIsRemoved() throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        Set<String> before = strategyDatabases(base);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        Path html = dir.resolve("strategies.html");
        String[] args = {
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
            html.toString(),
            "--json"
        };
        var flags = BenchCommands.BENCH_STRATEGIES.parse(args);
        ReportOutput output = ReportOutput.of(
                "strategies",
                flags,
                new PrintStream(json, true, StandardCharsets.UTF_8),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        int exit = output.finish(StrategiesBenchmark.run(base, flags, output));

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
        // and with --json the same figures are one document (the report went to the notes' stream)
        JsonNode doc = Json.MAPPER.readTree(json.toString(StandardCharsets.UTF_8));
        assertThat(doc.path("benchmark").asText()).isEqualTo("strategies");
        assertThat(doc.path("flags").path("stock").asText()).isEqualTo("20");
        assertThat(doc.path("flags").path("buckets").asText())
                .as("a default, as declared")
                .isEqualTo("1");
        assertThat(doc.path("safe").asBoolean()).isTrue();
        JsonNode faulted = doc.path("faulted").path(0);
        assertThat(faulted.path("strategy").asText()).isEqualTo("pessimistic");
        assertThat(faulted.path("fault").asBoolean()).isTrue();
        assertThat(faulted.path("audit").path("oversold").asLong()).isZero();
        assertThat(faulted.path("faultMillis").asLong()).isPositive();
        assertThat(doc.path("normal").path(0).path("answersPerSecond").asDouble())
                .isPositive();
        assertThat(doc.path("exit").asInt()).isZero();
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
