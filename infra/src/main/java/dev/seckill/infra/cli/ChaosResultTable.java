package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.ResultTables.cell;
import static dev.seckill.infra.cli.ResultTables.number;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The results table of {@code ./seckill chaos --json} documents ({@link ResultTables}): a row per scenario, a column
 * per run, each column named by the flags its run differs in.
 */
final class ChaosResultTable {
    private ChaosResultTable() {}

    /** {@code chaos}: a row per scenario, a column per run: verdict, faults, answered, sold, recovered in (ms). */
    static String render(StringBuilder b, List<JsonNode> runs) {
        b.append(" (recovered in: ms from each fault to the first final answer after it; - : nothing to recover):\n\n");
        b.append("| scenario |");
        for (String header : runHeaders(runs)) b.append(' ').append(header).append(" |");
        b.append("\n|---|").append("---|".repeat(runs.size())).append('\n');
        Map<String, List<JsonNode>> rows =
                ResultTables.byRun(runs, "scenarios", s -> s.path("scenario").asText());
        rows.forEach((scenario, cells) -> {
            b.append("| ").append(scenario).append(" |");
            for (JsonNode s : cells)
                b.append(' ').append(s.isMissingNode() ? "-" : chaosCell(s)).append(" |");
            b.append('\n');
        });
        return b.toString();
    }

    /**
     * A column's name per run: "run" alone; else the flags by which the runs differ ({@code --brokers 3}), or
     * "run N" where they differ in none.
     */
    static List<String> runHeaders(List<JsonNode> runs) {
        if (runs.size() == 1) return List.of("run");
        Map<String, String> first = flags(runs.get(0));
        Set<String> differ = new TreeSet<>();
        for (JsonNode r : runs) {
            Map<String, String> f = flags(r);
            for (String k : first.keySet()) if (!first.get(k).equals(f.get(k))) differ.add(k);
            for (String k : f.keySet()) if (!f.get(k).equals(first.get(k))) differ.add(k);
        }
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Map<String, String> f = flags(runs.get(i));
            List<String> parts = new ArrayList<>();
            for (String k : differ) parts.add(f.containsKey(k) ? "--" + k + " " + f.get(k) : "no --" + k);
            headers.add(differ.isEmpty() ? "run " + (i + 1) : cell(String.join(" ", parts)));
        }
        // runs of the same flags among others: told apart by their place
        List<String> named = List.copyOf(headers);
        for (int i = 0; i < headers.size(); i++)
            if (!differ.isEmpty() && Collections.frequency(named, named.get(i)) > 1)
                headers.set(i, headers.get(i) + " (run " + (i + 1) + ")");
        return headers;
    }

    private static Map<String, String> flags(JsonNode doc) {
        Map<String, String> f = new LinkedHashMap<>();
        doc.path("flags")
                .fields()
                .forEachRemaining(e -> f.put(e.getKey(), e.getValue().asText()));
        return f;
    }

    private static String chaosCell(JsonNode s) {
        List<String> recovered = new ArrayList<>();
        for (JsonNode ms : s.path("recoveredInMs")) recovered.add(ms.isNull() ? "never" : number(ms, 0));
        int faults = s.path("faults").asInt();
        return (s.path("passed").asBoolean()
                        ? "PASS"
                        : "FAIL: " + cell(s.path("failure").asText()))
                + ", " + faults + (faults == 1 ? " fault" : " faults")
                + ", " + number(s.path("answered"), 0) + " of " + number(s.path("requests"), 0) + " answered"
                + ", " + number(s.path("orders"), 0) + " orders for " + number(s.path("successes"), 0) + " SUCCESS"
                + ", oversold / lost / dup / false dup " + s.path("oversold").asLong() + " / "
                + s.path("lost").asLong()
                + " / " + s.path("duplicateBuyers").asLong() + " / "
                + s.path("falseDuplicates").asLong()
                + ", recovered in " + (recovered.isEmpty() ? "-" : String.join(" / ", recovered));
    }
}
