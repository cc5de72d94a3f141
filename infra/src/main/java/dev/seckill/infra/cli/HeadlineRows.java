package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.ResultTables.number;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.infra.bench.Targets;
import dev.seckill.infra.cli.HeadlineTable.Check;
import dev.seckill.infra.cli.HeadlineTable.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * The headline rows of each command's {@code --json} document ({@link HeadlineTable}): which figure of a benchmark is
 * its headline, against which reference of the same run, and which {@link Targets} it is held to. The field names are
 * those each benchmark writes (their printers document them).
 */
final class HeadlineRows {
    private HeadlineRows() {}

    static List<Row> of(JsonNode d) {
        return switch (ResultTables.kind(d)) {
            case "bench decide" -> decide(d);
            case "bench hot" -> hot(d);
            case "bench orders" -> orders(d);
            case "bench gateway" -> BenchHeadlines.gateway(d);
            case "bench answer" -> BenchHeadlines.answer(d);
            case "bench coldstart" -> BenchHeadlines.coldstart(d);
            case "bench hostile" -> BenchHeadlines.hostile(d);
            case "bench strategies" -> BenchHeadlines.strategies(d);
            case "bench fairness" -> BenchHeadlines.fairness(d);
            case "bench tokens" -> BenchHeadlines.tokens(d);
            case "demo" -> demo(d);
            default -> List.of();
        };
    }

    static String n(JsonNode d, String pointer, int decimals) {
        return number(d.at(pointer), decimals);
    }

    /** A flag's value as the run read it; a whole number written as the tables write figures (50,000). */
    static String flag(JsonNode d, String name) {
        String value = d.at("/flags/" + name).asText("-");
        return value.matches("\\d{4,18}") ? number(Long.parseLong(value), 0) : value;
    }

    /** A ratio as the tables write it: ×0.44. */
    static String x(double ratio) {
        return "×" + number(ratio, 2);
    }

    private static List<Row> decide(JsonNode d) {
        List<Row> rows = new ArrayList<>();
        String reference = "raw purchase Lua pipelined (32 per round trip) " + n(d, "/rawLua/pipelined", 0)
                + " ops/s; unpipelined " + n(d, "/rawLua/unpipelined", 0);
        rows.add(new Row(
                Targets.DECIDE_AS_GIVEN.row + " (" + n(d, "/saleAsGiven/commands", 0) + " purchases, one goods of "
                        + flag(d, "stock") + " units; most answered by the in-memory sold-out gate)",
                n(d, "/saleAsGiven/run/steady", 0) + " decisions/s steady (" + n(d, "/saleAsGiven/run/rate", 0)
                        + " with start-up)",
                reference,
                x(d.at("/saleAsGiven/ofRawLuaPipelined").asDouble(Double.NaN)) + " pipelined, "
                        + x(d.at("/saleAsGiven/ofRawLuaUnpipelined").asDouble(Double.NaN)) + " unpipelined",
                List.of(Check.of(
                        Targets.DECIDE_AS_GIVEN,
                        d.at("/saleAsGiven/ofRawLuaPipelined").asDouble(Double.NaN)))));
        JsonNode lua = d.path("everyPurchaseThroughLua");
        if (!lua.isMissingNode())
            rows.add(new Row(
                    Targets.DECIDE_THROUGH_LUA.row + " (" + n(lua, "/commands", 0)
                            + " purchases of one goods, stock for each)",
                    n(lua, "/run/steady", 0) + " decisions/s steady; waiting for Redis "
                            + number(
                                    lua.at("/run/redisWaitSeconds").asDouble(Double.NaN)
                                            / lua.at("/run/seconds").asDouble(Double.NaN)
                                            * 100,
                                    0)
                            + "% of the run",
                    reference,
                    x(lua.path("ofRawLuaPipelined").asDouble(Double.NaN)) + " pipelined, "
                            + x(lua.path("ofRawLuaUnpipelined").asDouble(Double.NaN)) + " unpipelined",
                    List.of(
                            Check.of(
                                    Targets.DECIDE_THROUGH_LUA,
                                    lua.path("ofRawLuaPipelined").asDouble(Double.NaN)),
                            Check.of(
                                    Targets.DECIDE_ONE_GOODS,
                                    lua.at("/run/steady").asDouble(Double.NaN)))));
        return rows;
    }

    private static List<Row> hot(JsonNode d) {
        List<String> buckets = new ArrayList<>();
        List<String> steady = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        List<String> projected = new ArrayList<>();
        double two = Double.NaN;
        for (JsonNode r : d.path("runs")) {
            String route = r.path("route").asText("own");
            if (!route.equals("own")) continue;
            int b = r.path("buckets").asInt();
            buckets.add(Integer.toString(b));
            steady.add(number(r.path("steadyDecisionsPerSecond"), 0));
            if (b == 1) continue;
            ratios.add(b + " buckets " + x(r.path("ofOneBucket").asDouble(Double.NaN)));
            projected.add(b + " buckets " + x(r.path("projectedOfOneBucket").asDouble(Double.NaN)));
            if (b == 2) two = r.path("ofOneBucket").asDouble(Double.NaN);
        }
        return List.of(new Row(
                Targets.HOT_TWO_BUCKETS.row + " (" + flag(d, "commands")
                        + " purchases, every one through Lua, ids the gateway issues)",
                "steady " + String.join(" / ", steady) + " decisions/s in " + String.join(" / ", buckets) + " buckets",
                "1 bucket in the same run; raw Lua pipelined " + n(d, "/rawLuaPipelinedOpsPerSecond", 0) + " ops/s",
                String.join(", ", ratios) + " of 1 bucket; projected on a core per bucket: "
                        + String.join(", ", projected),
                List.of(Check.of(Targets.HOT_TWO_BUCKETS, two))));
    }

    private static List<Row> orders(JsonNode d) {
        return List.of(new Row(
                "order-writer (" + n(d, "/orders", 0)
                        + " purchases of one goods — DEDUCTED ledger entries — → orders, ledger rows, DB stock)",
                n(d, "/steadyOrdersPerSecond", 0) + " orders/s steady",
                "raw multi-row INSERT (1,000 rows per statement) " + n(d, "/rawMultiRowPerSecond", 0)
                        + " rows/s; raw single-row INSERT " + n(d, "/rawSingleRowPerSecond", 0),
                x(d.path("ofRawMultiRow").asDouble(Double.NaN)) + " multi-row, "
                        + x(d.path("ofRawSingleRow").asDouble(Double.NaN)) + " single-row",
                List.of()));
    }

    private static List<Row> demo(JsonNode d) {
        return List.of(new Row(
                "the demo's shape (" + flag(d, "requests") + " requests, " + flag(d, "concurrency") + " clients, "
                        + flag(d, "stock") + " units, " + flag(d, "buckets") + " bucket(s))",
                n(d, "/load/requestsPerSecond", 0) + " requests/s, accept p50 / p99 " + n(d, "/load/acceptP50Ms", 1)
                        + " / " + n(d, "/load/acceptP99Ms", 1) + " ms; time to answer p50 / p99 "
                        + n(d, "/timeToAnswer/p50Ms", 1) + " / " + n(d, "/timeToAnswer/p99Ms", 1) + " ms",
                "the accept latency of the audited run",
                "answer/accept "
                        + x(d.at("/timeToAnswer/p99Ms").asDouble(Double.NaN)
                                / d.at("/load/acceptP99Ms").asDouble(Double.NaN))
                        + " at p99",
                List.of(
                        Check.zero("oversold", d.path("oversold").asDouble(Double.NaN)),
                        Check.zero("duplicate buyers", d.path("duplicateBuyers").asDouble(Double.NaN)),
                        new Check(
                                "every invariant held", d.path("invariantsHeld").asBoolean(), ""))));
    }
}
