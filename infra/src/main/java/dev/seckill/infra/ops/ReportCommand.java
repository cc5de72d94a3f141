package dev.seckill.infra.ops;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.ops.report.DrillDiff;
import dev.seckill.infra.ops.report.GoodsReport;
import dev.seckill.infra.ops.report.HtmlReport;
import dev.seckill.infra.ops.report.JsonReport;
import dev.seckill.infra.ops.report.ReportSource;
import dev.seckill.infra.ops.report.TextReport;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ./seckill report [--namespace N] [--goods N] [--html FILE]}: what each goods' sale came to, read from the
 * outcome topics, the ledger and the database, as text and, with {@code --html}, as one self-contained page with charts.
 */
public final class ReportCommand {
    private ReportCommand() {}

    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        KafkaClients.require(base, "run ./seckill up");
        Settings settings = NamespaceCommands.chosen(base, f);
        Long goods = f.has("goods") ? f.getLong("goods", 0) : null;
        ReportSource source = new ReportSource(settings);
        if (f.has("json")) {
            // stdout is the document only: no progress, the unreadable count on stderr
            List<GoodsReport> reports = source.read(goods, n -> {});
            out.println(JsonReport.render(settings.topicPrefix(), reports));
            if (source.unreadable() > 0)
                System.err.println(source.unreadable() + " records on the outcome or ledger topics did not parse");
            return 0;
        }
        // the topics' sizes are not known before they are read: a running count instead of a bar
        ProgressBar reading = ProgressBar.counting("reading", "records of " + settings.topicPrefix() + "*");
        List<GoodsReport> reports = source.read(goods, reading::update);
        reading.finish(0);
        out.print(TextReport.render(reports));
        DrillDiff drill = drillDiff(base, f, settings, goods);
        if (drill != null) out.print(drill.text());
        if (source.unreadable() > 0)
            out.println(source.unreadable() + " records on the outcome or ledger topics did not parse");
        if (f.has("html")) {
            Path file = Path.of(f.get("html", "report.html"));
            write(file, "seckill report — " + settings.topicPrefix() + "*", reports, drill == null ? "" : drill.html());
            out.println("HTML report: " + file.toAbsolutePath());
        }
        return 0;
    }

    /** Writes the HTML report of {@code reports} to {@code file} (the demo calls this too). */
    static void write(Path file, String title, List<GoodsReport> reports, String section) throws IOException {
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, HtmlReport.render(title, reports, section), StandardCharsets.UTF_8);
    }

    /**
     * For a drill namespace ({@code drill-…}) or with {@code --against NAME}: its outcomes beside those of the namespace
     * it was copied from ({@code --against}, else the live one); null otherwise.
     */
    static DrillDiff drillDiff(Settings base, Flags f, Settings drill, Long goods) throws Exception {
        boolean isDrill = f.get("namespace", "").startsWith("drill-");
        if (!isDrill && !f.has("against")) return null;
        Settings source = f.has("against") ? new Namespaces(base).settingsOf(f.get("against", "")) : base;
        return DrillDiff.of(
                source.topicPrefix() + "*",
                outcomes(new ReportSource(source).read(goods, n -> {})),
                outcomes(new ReportSource(drill).read(goods, n -> {})));
    }

    private static List<Outcome> outcomes(List<GoodsReport> reports) {
        return reports.stream().flatMap(r -> r.outcomes().stream()).toList();
    }
}
