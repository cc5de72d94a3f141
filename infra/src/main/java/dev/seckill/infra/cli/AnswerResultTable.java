package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.ResultTables.number;
import static dev.seckill.infra.cli.ResultTables.percent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Function;

/**
 * The results table of {@code ./seckill bench answer --json} documents ({@link ResultTables}): a row per commit
 * interval, the runs' figures side by side.
 */
final class AnswerResultTable {
    private AnswerResultTable() {}

    /** A column: its heading and how an interval's row shows it. */
    private record Column(String heading, Function<JsonNode, String> cell) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("decisions/s", r -> number(r.path("decisionsPerSecond"), 0)),
            new Column("one at a time p50 / p99 ms", r -> ms(r, "sequential", "/p50Ms", "/p99Ms")),
            new Column("open p50 / p99 / p99.9 ms", r -> ms(r, "open", "/p50Ms", "/p99Ms", "/p999Ms")),
            new Column("knew ≤ 100 ms", r -> percent(r.at("/figures/open/within100Ms"))),
            new Column("open accept p99 ms", r -> number(r.at("/figures/openAcceptP99"), 1)),
            new Column("closed answers/s", r -> number(r.at("/figures/closedAnsweredPerSecond"), 0)),
            new Column("closed p50 / p99 ms", r -> ms(r, "closed", "/p50Ms", "/p99Ms")));

    static String render(StringBuilder b, List<JsonNode> runs) {
        b.append(" (raw Lua pipelined ")
                .append(String.join(
                        " / ",
                        runs.stream()
                                .map(r -> number(r.path("rawLuaPipelinedOpsPerSecond"), 0))
                                .toList()))
                .append(" ops/s in them):\n\n| commit ms | ×raw Lua pipelined |");
        for (Column c : COLUMNS) b.append(' ').append(c.heading()).append(" |");
        b.append("\n|---|---|").append("---|".repeat(COLUMNS.size())).append('\n');
        ResultTables.byRun(runs, "intervals", r -> r.path("commitMs").asText()).forEach((commitMs, cells) -> {
            b.append("| ").append(commitMs).append(" | ");
            for (int i = 0; i < cells.size(); i++) {
                if (i > 0) b.append(" / ");
                double raw = runs.get(i).path("rawLuaPipelinedOpsPerSecond").asDouble();
                b.append(number(cells.get(i).path("decisionsPerSecond").asDouble(Double.NaN) / raw, 2));
            }
            b.append(" |");
            for (Column c : COLUMNS) {
                b.append(' ');
                for (int i = 0; i < cells.size(); i++)
                    b.append(i > 0 ? " / " : "")
                            .append(
                                    cells.get(i).isMissingNode()
                                            ? "-"
                                            : c.cell().apply(cells.get(i)));
                b.append(" |");
            }
            b.append('\n');
        });
        return b.toString();
    }

    private static String ms(JsonNode row, String load, String... pointers) {
        StringBuilder s = new StringBuilder();
        for (String p : pointers)
            s.append(s.length() == 0 ? "" : " / ").append(number(row.at("/figures/" + load + p), 1));
        return s.toString();
    }
}
