package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.infra.bench.Targets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** "Current figures" rows made from documents: the figure, its same-run reference, the ratio and a computed verdict. */
@Tag("fast")
class HeadlineTableTest {
    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text.replace('\'', '"'));
    }

    private static final String DECIDE = "{'benchmark':'decide','flags':{'commands':'1000000','stock':'1000'},"
            + "'rawLua':{'unpipelined':27000,'pipelined':50000},"
            + "'saleAsGiven':{'commands':1000000,'run':{'steady':100000,'rate':90000},"
            + "'ofRawLuaUnpipelined':3.7,'ofRawLuaPipelined':2.0},"
            + "'everyPurchaseThroughLua':{'commands':300000,'run':{'steady':%s,'rate':1,'seconds':10,"
            + "'redisWaitSeconds':6.5},'ofRawLuaUnpipelined':1.2,'ofRawLuaPipelined':%s},'exit':0}";

    @Test
    void aBenchmarksFiguresAreItsRowsWithVerdictsComputedFromItsTargets() throws Exception {
        // Given a decide run whose sale as given is ×2.0 of raw Lua and whose all-Lua path is ×0.7 at 35,000/s
        JsonNode d = json(String.format(DECIDE, 35000, 0.7));
        // When its headlines are rendered
        String table = HeadlineTable.render(List.of(d));
        // Then each path is a row with its command, figure, reference and a verdict per target
        List<String> rows = table.lines().skip(2).toList();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0))
                .startsWith("| " + Targets.DECIDE_AS_GIVEN.row + " (1,000,000 purchases")
                .contains("`./seckill bench decide --commands 1000000 --stock 1000 --json`")
                .contains("100,000 decisions/s steady")
                .contains("raw purchase Lua pipelined (32 per round trip) 50,000 ops/s")
                .contains("×2.00 pipelined")
                .endsWith("| ≥ ×1.4 pipelined | met |");
        assertThat(rows.get(1))
                .contains("waiting for Redis 65% of the run")
                .contains("≥ ×1.0 pipelined: **missed**: " + Targets.DECIDE_THROUGH_LUA.whenMissed)
                .contains("≥ 31,000/s for one goods: met");
    }

    @Test
    void aVerdictFollowsTheFigureNotTheText() throws Exception {
        JsonNode slow = json(String.format(DECIDE, 30000, 1.1));
        String row = HeadlineTable.render(List.of(slow)).lines().toList().get(3);
        assertThat(row).contains("≥ ×1.0 pipelined: met").contains("≥ 31,000/s for one goods: **missed**");
    }

    @Test
    void aSafetyFigureMustBeZero_andADocumentWithoutHeadlinesIsRefused() throws Exception {
        JsonNode demo = json("{'command':'demo','flags':{'requests':'50000','concurrency':'500','stock':'1000',"
                + "'buckets':'1'},'load':{'requestsPerSecond':5000,'acceptP50Ms':70,'acceptP99Ms':500},"
                + "'timeToAnswer':{'p50Ms':60,'p99Ms':550},'oversold':1,'duplicateBuyers':0,'invariantsHeld':false}");
        assertThat(HeadlineTable.render(List.of(demo)))
                .contains("oversold 0: **missed**")
                .contains("duplicate buyers 0: met")
                .contains("every invariant held: **missed**");
        JsonNode drill = json("{'command':'drill','flags':{}}");
        assertThatThrownBy(() -> HeadlineTable.render(List.of(drill)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no headline figures for './seckill drill --json'");
    }

    @Test
    void aHeadlinesBlockInADocIsMadeFromItsDocuments(@org.junit.jupiter.api.io.TempDir java.nio.file.Path root)
            throws Exception {
        java.nio.file.Files.createDirectories(root.resolve(ResultTables.DIR));
        java.nio.file.Files.writeString(
                root.resolve(ResultTables.DIR).resolve("bench-decide.json"),
                String.format(DECIDE, 35000, 0.7).replace('\'', '"'));
        String doc = "# x\n<!-- results: headlines bench-decide.json -->\nstale\n<!-- /results -->\n";
        String rendered = ResultTables.render(doc, root);
        assertThat(rendered)
                .doesNotContain("stale")
                .contains("| benchmark | command |")
                .contains("100,000");
    }
}
