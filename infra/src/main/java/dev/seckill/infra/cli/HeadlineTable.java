package dev.seckill.infra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.infra.bench.Targets;
import java.util.ArrayList;
import java.util.List;

/**
 * docs/performance.md's "Current figures": one row per headline figure of each benchmark's latest {@code --json}
 * document, with the command that measured it, the reference measured in the same run, the ratio, the target
 * ({@link Targets}) and the verdict — computed here from the document, never typed. A block of it is {@code <!--
 * results: headlines a.json b.json ... -->}: documents of different commands, one or more rows each
 * ({@link HeadlineRows}).
 */
final class HeadlineTable {
    /** The block's first word that makes it this table rather than one command's runs. */
    static final String WORD = "headlines";

    /** A check of a figure against a target: what the target states, whether it was met, why a miss is one here. */
    record Check(String stated, boolean met, String whenMissed) {
        static Check of(Targets t, double measured) {
            return new Check(t.stated, t.met(measured), t.whenMissed);
        }

        /** A safety figure that must be zero (oversold, lost): stated as {@code what} = 0. */
        static Check zero(String what, double measured) {
            return new Check(what + " 0", measured == 0, "");
        }
    }

    /** One row: what was measured, its figure, the reference of the same run, the ratio, the checks. */
    record Row(String benchmark, String figure, String reference, String ratio, List<Check> checks) {
        Row {
            checks = List.copyOf(checks);
        }
    }

    private HeadlineTable() {}

    /** The table of {@code documents}, each one command's latest run, in the block's order. */
    static String render(List<JsonNode> documents) {
        StringBuilder b = new StringBuilder();
        b.append("| benchmark | command | figure | reference (same run) | ratio | target | verdict |\n");
        b.append("|---|---|---|---|---|---|---|\n");
        for (JsonNode doc : documents) {
            List<Row> rows = HeadlineRows.of(doc);
            if (rows.isEmpty())
                throw new IllegalArgumentException("no headline figures for '" + ResultTables.command(doc) + "'");
            for (Row r : rows)
                b.append("| ")
                        .append(String.join(
                                " | ",
                                ResultTables.cell(r.benchmark()),
                                "`" + ResultTables.command(doc) + "`",
                                ResultTables.cell(r.figure()),
                                ResultTables.cell(r.reference()),
                                ResultTables.cell(r.ratio()),
                                ResultTables.cell(target(r.checks())),
                                ResultTables.cell(verdict(r.checks()))))
                        .append(" |\n");
        }
        return b.toString();
    }

    static String target(List<Check> checks) {
        if (checks.isEmpty()) return "none set";
        return String.join("; ", checks.stream().map(Check::stated).toList());
    }

    /** "met", "**missed**: why", or each check's own when a row has several; "—" with none. */
    static String verdict(List<Check> checks) {
        if (checks.isEmpty()) return "—";
        if (checks.size() == 1) return said(checks.get(0));
        List<String> each = new ArrayList<>();
        for (Check c : checks) each.add(c.stated() + ": " + said(c));
        return String.join("; ", each);
    }

    private static String said(Check c) {
        if (c.met()) return "met";
        return c.whenMissed().isEmpty() ? "**missed**" : "**missed**: " + c.whenMissed();
    }
}
