package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given the {@code --json} documents kept in docs/results, when the docs are rendered, then every results table of
 * docs/performance.md and docs/reliability.md is exactly what its documents say — a figure typed into one by hand, or
 * a document changed without {@code ./seckill docs}, fails here.
 */
@Tag("fast")
class ResultTablesTest {
    /** Surefire runs in the module's directory. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theDocsTablesAreWhatTheirDocumentsSay() throws IOException {
        int blocks = 0;
        for (String name : ResultTables.DOCS) {
            String doc = Files.readString(ROOT.resolve(name));
            blocks += doc.split("<!-- results: ", -1).length - 1;
            assertThat(doc)
                    .as(name + " differs from its documents in " + ResultTables.DIR + ": run ./seckill docs")
                    .isEqualTo(ResultTables.render(doc, ROOT));
        }
        assertThat(blocks).as("results tables in the docs").isGreaterThanOrEqualTo(2);
    }

    @Test
    void aBenchmarksTableShowsEachRunsFiguresUnderItsCommand() throws IOException {
        // Given two runs of bench hot
        write("hot-1.json", hot(20_000.4, 1.0, 25_000, 1.25));
        write("hot-2.json", hot(21_000, 1.0, 27_300, 1.3));
        String doc = "# t\n<!-- results: hot-1.json hot-2.json -->\nstale\n<!-- /results -->\nafter\n";
        // When the doc is rendered
        String made = ResultTables.render(doc, dir);
        // Then the block holds the command and a row per bucket count, the runs side by side; the rest is kept
        assertThat(made)
                .startsWith("# t\n<!-- results: hot-1.json hot-2.json -->\n")
                .contains("`./seckill bench hot --buckets 1,2 --commands 1000 --json`, 2 runs")
                .contains("| 1 | - | 20,000 / 21,000 | 1.00 / 1.00 |")
                .contains("| 2 | own | 25,000 / 27,300 | 1.25 / 1.30 |")
                .doesNotContain("stale")
                .endsWith("<!-- /results -->\nafter\n");
        assertThat(ResultTables.render(made, dir)).as("rendering is stable").isEqualTo(made);
        // and a changed figure in a document changes the table
        write("hot-2.json", hot(21_000, 1.0, 27_400, 1.3));
        assertThat(ResultTables.render(made, dir)).contains("25,000 / 27,400").isNotEqualTo(made);
    }

    @Test
    void anAnswerTableShowsARowPerCommitInterval_itsThroughputAsARatioToItsOwnRunsRawLua() throws IOException {
        // Given a run of bench answer at two commit intervals, the second without a throughput figure
        write("answer.json", """
                {"benchmark":"answer","flags":{"commit-intervals":"20,100"},"rawLuaPipelinedOpsPerSecond":50000,
                 "intervals":[
                  {"commitMs":20,"decisionsPerSecond":90000,"figures":{
                    "sequential":{"p50Ms":15.1,"p99Ms":27.9},"open":{"p50Ms":18.7,"p99Ms":100.7,"p999Ms":155.3,
                    "within100Ms":0.99},"openAcceptP99":17.8,"closedAnsweredPerSecond":7171,
                    "closed":{"p50Ms":67.1,"p99Ms":131.2}}},
                  {"commitMs":100,"figures":{"sequential":{"p50Ms":13.6},"open":{"p50Ms":21.7,"within100Ms":0.986},
                    "openAcceptP99":18.8,"closedAnsweredPerSecond":5445,"closed":{"p50Ms":73.3,"p99Ms":155.1}}}],
                 "exit":0}
                """);
        // When its block is rendered
        String made = ResultTables.render("<!-- results: answer.json -->\n<!-- /results -->\n", dir);
        // Then each interval is a row; a figure the run lacks is a dash, not a neighbour's figure
        assertThat(made)
                .contains(
                        "`./seckill bench answer --commit-intervals 20,100 --json`, one run (raw Lua pipelined 50,000")
                .contains(
                        "| 20 | 1.80 | 90,000 | 15.1 / 27.9 | 18.7 / 100.7 / 155.3 | 99.0% | 17.8 | 7,171 | 67.1 / 131.2 |")
                .contains("| 100 | - | - | 13.6 / - | 21.7 / - / - | 98.6% | 18.8 | 5,445 | 73.3 / 155.1 |");
    }

    @Test
    void aStrategiesTableShowsEachStrategysFiguresPerRun_andADashWhereAStrategyHasNone() throws IOException {
        // Given a run of bench strategies: the synchronous design (no hops) and the pipeline
        write("s-1.json", """
                {"benchmark":"strategies","flags":{"strategies":"sync,pipeline"},"workload":{"buckets":2},
                 "normal":[
                  {"strategy":"sync","answersPerSecond":11160.2,"p50":36.78,"p99":251.07,
                   "firstSecond":{"p50":41.1,"p99":519.8},"audit":{"sold":1000,"oversold":0,"lost":0}},
                  {"strategy":"pipeline","answersPerSecond":16785.6,"p50":15.92,"p99":363.65,
                   "firstSecond":{"p50":246.7,"p99":569.6,"hops":{"toDecided":{"p50":160.1,"p99":261.1}}},
                   "audit":{"sold":1000,"oversold":0,"lost":1}}]}
                """);
        // When its block is rendered
        String made = ResultTables.render("<!-- results: s-1.json -->\n<!-- /results -->\n", dir);
        // Then a row per strategy, its figures in their columns, "-" where the strategy has no such figure
        assertThat(made)
                .contains("`./seckill bench strategies --strategies sync,pipeline --json`, one run")
                .contains("(the pipeline's sale in 2 bucket(s))")
                .contains("| sync | 11,160 | 36.8 | 251.1 | 41 | 520 | - | - | 1,000 | 0 | 0 |")
                .contains("| pipeline | 16,786 | 15.9 | 363.7 | 247 | 570 | 160 | 261 | 1,000 | 0 | 1 |");
    }

    @Test
    void aDemoTableShowsTheReportsFiguresARowEach_aColumnPerRun() throws IOException {
        // Given two demo runs, the second with its invariants broken and no time-to-answer run
        write("demo-1.json", """
                {"command":"demo","flags":{"requests":"50000","seed":"7"},"namespace":"demo-1",
                 "load":{"requestsPerSecond":5077.2,"accepted":20417,"acceptP50Ms":76.91,"acceptP99Ms":398.9},
                 "decisionP50Ms":40,"decisionP99Ms":340,
                 "outcomes":{"SUCCESS":1000,"SOLD_OUT":18000,"DUPLICATE":1417,"REJECTED":0},
                 "orders":{"all":1000,"live":1000},"stockLeft":{"redis":0,"db":0,"ledger":0},
                 "oversold":0,"duplicateBuyers":0,"invariantsHeld":true,
                 "timeToAnswer":{"p50Ms":40.12,"p99Ms":340.4,"within100Ms":0.962}}
                """);
        write("demo-2.json", """
                {"command":"demo","flags":{"requests":"50000","seed":"7"},"namespace":"demo-2",
                 "load":{"requestsPerSecond":4000,"accepted":20000,"acceptP50Ms":80,"acceptP99Ms":400},
                 "decisionP50Ms":41,"decisionP99Ms":350,
                 "outcomes":{"SUCCESS":1001,"SOLD_OUT":17999,"DUPLICATE":1000,"REJECTED":0},
                 "orders":{"all":1001,"live":1001},"stockLeft":{"redis":0,"db":0,"ledger":-1},
                 "oversold":1,"duplicateBuyers":0,"invariantsHeld":false,"timeToAnswer":null}
                """);
        // When their block is rendered
        String made = ResultTables.render("<!-- results: demo-1.json demo-2.json -->\n<!-- /results -->\n", dir);
        // Then a row per figure, the runs side by side, "-" where a run measured nothing
        assertThat(made)
                .contains("`./seckill demo --requests 50000 --seed 7 --json`, 2 runs, one after the other")
                .contains("| figure | run 1 | run 2 |")
                .contains("| accept latency p50 / p99 ms | 76.9 / 398.9 | 80.0 / 400.0 |")
                .contains("| time to answer p50 / p99 ms (Prefer: wait) | 40.1 / 340.4 | - / - |")
                .contains("| knew within 100 ms | 96.2% | - |")
                .contains("| SUCCESS / SOLD_OUT / DUPLICATE / REJECTED | 1,000 / 18,000 / 1,417 / 0 | 1,001 / 17,999 /"
                        + " 1,000 / 0 |")
                .contains("| oversold / duplicate buyers | 0 / 0 | 1 / 0 |")
                .contains("| invariants | held | BROKEN |");
    }

    @Test
    void aChaosTableShowsAVerdictPerScenarioAndRun() throws IOException {
        write("chaos.json", """
                {"command":"chaos","flags":{"buckets":"3","scenario":"kill-stream,retries"},"brokers":1,"passed":false,
                 "scenarios":[
                  {"scenario":"kill-stream","faults":3,"requests":6000,"answered":6000,"successes":600,"orders":600,
                   "oversold":0,"lost":0,"duplicateBuyers":0,"falseDuplicates":0,"recoveredInMs":[4933,null,5828],
                   "passed":true},
                  {"scenario":"retries","faults":2,"requests":6000,"answered":5990,"successes":600,"orders":599,
                   "oversold":0,"lost":1,"duplicateBuyers":0,"falseDuplicates":0,"recoveredInMs":[],
                   "passed":false,"failure":"an order lost"}]}
                """);
        String made = ResultTables.render("<!-- results: chaos.json -->\n<!-- /results -->\n", dir);
        assertThat(made)
                .contains("`./seckill chaos --buckets 3 --scenario kill-stream,retries --json`, one run")
                .contains("| kill-stream | PASS, 3 faults, 6,000 of 6,000 answered, 600 orders for 600 SUCCESS,"
                        + " oversold / lost / dup / false dup 0 / 0 / 0 / 0, recovered in 4,933 / never / 5,828 |")
                .contains("| retries | FAIL: an order lost, 2 faults, 5,990 of 6,000 answered");
    }

    @Test
    void givenRunsOfOneCommandWithDifferentFlags_whenTabled_thenEachColumnIsNamedByTheFlagsItsRunDiffersIn()
            throws IOException {
        String scenario = "{\"scenario\":\"poison\",\"faults\":3,\"requests\":10,\"answered\":10,\"successes\":1,"
                + "\"orders\":1,\"recoveredInMs\":[],\"passed\":true}";
        write(
                "c1.json",
                "{\"command\":\"chaos\",\"flags\":{\"brokers\":\"1\",\"seed\":\"42\"},\"scenarios\":[" + scenario
                        + "]}");
        write(
                "c3.json",
                "{\"command\":\"chaos\",\"flags\":{\"brokers\":\"3\",\"seed\":\"42\"},\"scenarios\":[" + scenario
                        + "]}");
        write(
                "c3b.json",
                "{\"command\":\"chaos\",\"flags\":{\"brokers\":\"3\",\"seed\":\"42\"},\"scenarios\":[" + scenario
                        + "]}");

        assertThat(ResultTables.render("<!-- results: c1.json c3.json -->\n<!-- /results -->\n", dir))
                .contains("| scenario | --brokers 1 | --brokers 3 |");
        assertThat(ResultTables.render("<!-- results: c3.json c3b.json -->\n<!-- /results -->\n", dir))
                .as("runs of the same flags are numbered")
                .contains("| scenario | run 1 | run 2 |");
        assertThat(ResultTables.render("<!-- results: c1.json c3.json c3b.json -->\n<!-- /results -->\n", dir))
                .as("runs of the same flags among others are told apart by their place")
                .contains("| scenario | --brokers 1 | --brokers 3 (run 2) | --brokers 3 (run 3) |");
    }

    @Test
    void aRunWithoutARowLeavesItsCellEmptyRatherThanShiftingAnother() throws IOException {
        write("hot-1.json", hot(20_000, 1.0, 25_000, 1.25));
        write("hot-2.json", """
                {"benchmark":"hot","flags":{"buckets":"1,2","commands":"1000"},"rawLuaPipelinedOpsPerSecond":60000,
                 "runs":[{"buckets":2,"route":"own","steadyDecisionsPerSecond":27000,"ofOneBucket":1.3}]}
                """);
        String made = ResultTables.render("<!-- results: hot-1.json hot-2.json -->\r\n<!-- /results -->\n", dir);
        assertThat(made).contains("| 1 | - | 20,000 / - |").contains("| 2 | own | 25,000 / 27,000 |");
    }

    @Test
    void anUnclosedBlockIsAnErrorNotASilentPass() {
        assertThatThrownBy(() -> ResultTables.render(
                        "<!-- results: a.json -->\ntext\n<!-- results: b.json -->\n<!-- /results -->", dir))
                .hasMessageContaining("2 results blocks opened, 1 well formed");
    }

    @Test
    void aBlockNamingAMissingOrForeignDocumentIsAnError() throws IOException {
        assertThatThrownBy(() -> ResultTables.render("<!-- results: gone.json -->\n<!-- /results -->", dir))
                .isInstanceOf(NoSuchFileException.class);
        write("other.json", "{\"benchmark\":\"tokens\",\"flags\":{}}");
        assertThatThrownBy(() -> ResultTables.render("<!-- results: other.json -->\n<!-- /results -->", dir))
                .hasMessageContaining("no results table for 'bench tokens'");
    }

    private void write(String name, String json) throws IOException {
        Files.createDirectories(dir.resolve(ResultTables.DIR));
        Files.writeString(dir.resolve(ResultTables.DIR).resolve(name), json);
    }

    private static String hot(double one, double oneRatio, double two, double twoRatio) {
        return """
                {"benchmark":"hot","flags":{"buckets":"1,2","commands":"1000"},"rawLuaPipelinedOpsPerSecond":60000,
                 "runs":[
                  {"buckets":1,"steadyDecisionsPerSecond":%s,"ofOneBucket":%s,"ofRawLuaPipelined":0.3,"sold":1000,
                   "streamCpuMicrosPerPurchase":18.0,"projectedOfOneBucket":1.0},
                  {"buckets":2,"route":"own","steadyDecisionsPerSecond":%s,"ofOneBucket":%s,"ofRawLuaPipelined":0.4,
                   "sold":1000,"streamCpuMicrosPerPurchase":20.0,"projectedOfOneBucket":1.8}],"exit":0}
                """.formatted(one, oneRatio, two, twoRatio);
    }
}
