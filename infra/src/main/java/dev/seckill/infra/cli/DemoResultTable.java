package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.ResultTables.number;
import static dev.seckill.infra.cli.ResultTables.percent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Function;

/**
 * The results table of {@code ./seckill demo --json} documents ({@link ResultTables}): a row per figure of the
 * flash-sale report, a column per run.
 */
final class DemoResultTable {
    private DemoResultTable() {}

    /** A figure's row: its name and how a run's document shows it. */
    private record Row(String figure, Function<JsonNode, String> cell) {}

    private static final List<Row> ROWS = List.of(
            new Row("requests sent / s", d -> number(d.at("/load/requestsPerSecond"), 0)),
            new Row("accepted (202)", d -> number(d.at("/load/accepted"), 0)),
            new Row(
                    "accept latency p50 / p99 ms",
                    d -> number(d.at("/load/acceptP50Ms"), 1) + " / " + number(d.at("/load/acceptP99Ms"), 1)),
            new Row(
                    "accepted → decided p50 / p99 ms",
                    d -> number(d.path("decisionP50Ms"), 0) + " / " + number(d.path("decisionP99Ms"), 0)),
            new Row(
                    "time to answer p50 / p99 ms (Prefer: wait)",
                    d -> number(d.at("/timeToAnswer/p50Ms"), 1) + " / " + number(d.at("/timeToAnswer/p99Ms"), 1)),
            new Row("knew within 100 ms", d -> percent(d.at("/timeToAnswer/within100Ms"))),
            new Row(
                    "SUCCESS / SOLD_OUT / DUPLICATE / REJECTED",
                    d -> number(d.at("/outcomes/SUCCESS"), 0) + " / " + number(d.at("/outcomes/SOLD_OUT"), 0) + " / "
                            + number(d.at("/outcomes/DUPLICATE"), 0) + " / " + number(d.at("/outcomes/REJECTED"), 0)),
            new Row(
                    "orders (live)",
                    d -> number(d.at("/orders/all"), 0) + " (" + number(d.at("/orders/live"), 0) + ")"),
            new Row(
                    "stock left: Redis / DB / ledger",
                    d -> number(d.at("/stockLeft/redis"), 0) + " / " + number(d.at("/stockLeft/db"), 0) + " / "
                            + number(d.at("/stockLeft/ledger"), 0)),
            new Row(
                    "oversold / duplicate buyers",
                    d -> number(d.path("oversold"), 0) + " / " + number(d.path("duplicateBuyers"), 0)),
            new Row("invariants", d -> d.path("invariantsHeld").asBoolean() ? "held" : "BROKEN"));

    static String render(StringBuilder b, List<JsonNode> runs) {
        b.append(":\n\n| figure |");
        for (int i = 1; i <= runs.size(); i++) b.append(runs.size() == 1 ? " run |" : " run " + i + " |");
        b.append("\n|---|").append("---|".repeat(runs.size())).append('\n');
        for (Row row : ROWS) {
            b.append("| ").append(row.figure()).append(" |");
            for (JsonNode run : runs)
                b.append(' ').append(row.cell().apply(run)).append(" |");
            b.append('\n');
        }
        return b.toString();
    }
}
