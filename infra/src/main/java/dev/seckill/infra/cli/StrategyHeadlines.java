package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.HeadlineRows.flag;
import static dev.seckill.infra.cli.HeadlineRows.n;
import static dev.seckill.infra.cli.HeadlineRows.x;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.infra.bench.Targets;
import dev.seckill.infra.cli.HeadlineTable.Check;
import dev.seckill.infra.cli.HeadlineTable.Row;
import java.util.ArrayList;
import java.util.List;

/** The headline rows of {@code bench strategies}: throughput, the tail against the synchronous design, the kill. */
final class StrategyHeadlines {
    private StrategyHeadlines() {}

    private static JsonNode run(JsonNode d, String list, String strategy) {
        return ResultTables.find(d.path(list), r -> r.path("strategy").asText().equals(strategy));
    }

    /**
     * A target's row; with the pipeline's sale in buckets, a row of its own ("the write-up's strategies with the
     * pipeline's sale in 2 buckets: …"), held to the same target.
     */
    private static String label(JsonNode d, Targets t) {
        String buckets = flag(d, "buckets");
        if (buckets.equals("1") || buckets.equals("-")) return t.row;
        return t.row.replace(
                "the write-up's strategies:",
                "the write-up's strategies with the pipeline's sale in " + buckets + " buckets:");
    }

    static List<Row> of(JsonNode d) {
        String shape = " (" + flag(d, "stock") + " units, " + flag(d, "requests") + " purchases, "
                + flag(d, "concurrency") + " clients)";
        JsonNode pipeline = run(d, "normal", "pipeline");
        JsonNode sync = run(d, "normal", "sync");
        JsonNode pessimistic = run(d, "normal", "pessimistic");
        List<Row> rows = new ArrayList<>();
        if (pipeline.isMissingNode() || sync.isMissingNode()) return rows;
        double ofSync = pipeline.path("answersPerSecond").asDouble(Double.NaN)
                / sync.path("answersPerSecond").asDouble(Double.NaN);
        List<Check> throughput = new ArrayList<>();
        String reference = "synchronous Redis+Lua " + n(sync, "/answersPerSecond", 0) + "/s";
        String ratio = x(ofSync) + " synchronous";
        if (!pessimistic.isMissingNode()) {
            double ofPessimistic = pipeline.path("answersPerSecond").asDouble(Double.NaN)
                    / pessimistic.path("answersPerSecond").asDouble(Double.NaN);
            reference = "pessimistic lock " + n(pessimistic, "/answersPerSecond", 0) + "/s; " + reference;
            ratio = x(ofPessimistic) + " pessimistic, " + ratio;
            throughput.add(Check.of(Targets.STRATEGIES_PESSIMISTIC, ofPessimistic));
        }
        throughput.add(Check.of(Targets.STRATEGIES_SYNCHRONOUS, ofSync));
        rows.add(new Row(
                label(d, Targets.STRATEGIES_SYNCHRONOUS) + shape,
                "pipeline " + n(pipeline, "/answersPerSecond", 0) + " answers/s (the load generator's ceiling here "
                        + n(d, "/generatorCeilingPerSecond", 0) + "/s)",
                reference,
                ratio,
                throughput));
        double tail =
                pipeline.path("p99").asDouble(Double.NaN) / sync.path("p99").asDouble(Double.NaN);
        rows.add(new Row(
                label(d, Targets.STRATEGIES_SYNC_TAIL) + shape,
                "pipeline p99 " + n(pipeline, "/p99", 1) + " ms (p50 " + n(pipeline, "/p50", 1)
                        + "); its first second's accepted → decided p50 / p99 "
                        + n(pipeline, "/firstSecond/hops/toDecided/p50", 0) + " / "
                        + n(pipeline, "/firstSecond/hops/toDecided/p99", 0) + " ms",
                "synchronous Redis+Lua p99 " + n(sync, "/p99", 1) + " ms (p50 " + n(sync, "/p50", 1) + ")",
                "p99 " + x(tail) + ", p50 "
                        + x(pipeline.path("p50").asDouble(Double.NaN)
                                / sync.path("p50").asDouble(Double.NaN)),
                List.of(Check.of(Targets.STRATEGIES_SYNC_TAIL, tail))));
        JsonNode killed = run(d, "faulted", "pipeline");
        if (!killed.isMissingNode()) rows.add(killed(d, killed, shape));
        return rows;
    }

    private static Row killed(JsonNode d, JsonNode pipeline, String shape) {
        JsonNode sync = run(d, "faulted", "sync");
        JsonNode a = pipeline.path("audit");
        return new Row(
                "the write-up's strategies: every serving process SIGKILLed mid-sale" + shape,
                "pipeline " + n(a, "/sold", 0) + " sold, " + n(a, "/oversold", 0) + " oversold, "
                        + n(a, "/duplicateBuyers", 0) + " duplicate buyers, " + n(a, "/lost", 0)
                        + " confirmed sales lost, " + n(a, "/falseDuplicates", 0) + " told DUPLICATE without an order",
                sync.isMissingNode()
                        ? "—"
                        : "the synchronous design: " + n(sync, "/audit/sold", 0) + " sold, "
                                + n(sync, "/audit/lost", 0) + " confirmed sales lost, "
                                + n(sync, "/audit/falseDuplicates", 0) + " told DUPLICATE without an order",
                "—",
                List.of(
                        Check.zero("oversold", a.path("oversold").asDouble(Double.NaN)),
                        Check.zero("duplicate buyers", a.path("duplicateBuyers").asDouble(Double.NaN)),
                        Check.zero("lost", a.path("lost").asDouble(Double.NaN)),
                        Check.zero(
                                "told DUPLICATE without an order",
                                a.path("falseDuplicates").asDouble(Double.NaN))));
    }
}
