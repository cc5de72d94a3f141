package dev.seckill.infra.ops.sql;

import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.Function;

/**
 * {@code ./seckill sql [--namespace NAME] [--export DIR] ["SELECT …"]}: the namespace's outcomes, commands, ledger and
 * orders as DuckDB tables ({@link SaleTables}); the query's answer as a text table on stdout ({@code --json}: as one JSON
 * document). Without a query, and
 * without {@code --export}, statements are read from stdin, each ended by {@code ;} (a prompt when stdin is a
 * terminal; {@code .tables} lists the tables, {@code .quit} or end of input leaves). The loading progress goes to
 * stderr, as a bar when stderr is a terminal, so that stdout is only the answer.
 */
public final class SqlCommand {
    private SqlCommand() {}

    /**
     * @param chosen the settings of the namespace named by the flags ({@code --namespace}), else the live one
     */
    /** Runs {@code query} (empty: a prompt on {@code in}) over the tables of the namespace {@code chosen} names. */
    public static int run(
            Settings base,
            Flags f,
            String query,
            Function<Flags, Settings> chosen,
            InputStream in,
            PrintStream out,
            PrintStream err)
            throws Exception {
        KafkaClients.require(base, "run ./seckill up");
        Settings settings = chosen.apply(f);
        try (SaleTables tables = SaleTables.load(settings, progress())) {
            err.printf(
                    Locale.ROOT,
                    "loaded     %s* in %,d ms: %s%n",
                    settings.topicPrefix(),
                    tables.loadMillis(),
                    counts(tables));
            if (tables.unreadable() > 0)
                err.println(tables.unreadable() + " records on the outcome or ledger topics did not parse");
            if (f.has("export")) {
                for (Path p : tables.exportParquet(Path.of(f.get("export", "."))))
                    err.printf(Locale.ROOT, "exported   %s (%,d bytes)%n", p, Files.size(p));
            }
            if (!query.isEmpty()) return execute(tables, query, f.has("json"), out, err) ? 0 : 1;
            if (f.has("export")) return 0;
            return prompt(tables, f.has("json"), in, out, err);
        }
    }

    /**
     * Runs one statement and prints its answer (a text table, or with {@code json} one JSON document); false (and the
     * error on {@code err}) when DuckDB refused it.
     */
    public static boolean execute(SaleTables tables, String sql, boolean json, PrintStream out, PrintStream err) {
        try (Statement st = tables.connection().createStatement()) {
            if (st.execute(sql)) {
                try (ResultSet rs = st.getResultSet()) {
                    out.print(json ? ResultTable.json(rs) + "\n" : ResultTable.render(rs));
                }
            } else {
                out.println(
                        json
                                ? "{\"changed\": " + st.getUpdateCount() + "}"
                                : "(" + st.getUpdateCount() + " rows changed)");
            }
            out.flush();
            return true;
        } catch (SQLException e) {
            err.println("error: " + e.getMessage());
            return false;
        }
    }

    /** Statements from {@code in}, each ended by {@code ;}; 0 when every one ran, 1 otherwise. */
    static int prompt(SaleTables tables, boolean json, InputStream in, PrintStream out, PrintStream err)
            throws IOException {
        boolean terminal = System.console() != null;
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        if (terminal)
            out.println("tables: " + String.join(", ", SaleTables.TABLES)
                    + " (docs/operations.md, \"Every sale as tables\"); end a statement with ; .quit to leave");
        StringBuilder statement = new StringBuilder();
        boolean allRan = true;
        while (true) {
            if (terminal) {
                out.print(statement.length() == 0 ? "sql> " : "...> ");
                out.flush();
            }
            String line = r.readLine();
            if (line == null) break;
            String t = line.strip();
            if (statement.length() == 0 && t.startsWith(".")) {
                if (t.equals(".quit") || t.equals(".exit")) break;
                if (t.equals(".tables")) {
                    allRan &= execute(tables, "SHOW TABLES", json, out, err);
                } else err.println("unknown command " + t + " (.tables, .quit)");
                continue;
            }
            statement.append(line).append('\n');
            if (t.endsWith(";")) {
                allRan &= execute(tables, statement.toString(), json, out, err);
                statement.setLength(0);
            }
        }
        if (!statement.toString().isBlank()) allRan &= execute(tables, statement.toString(), json, out, err);
        return allRan ? 0 : 1;
    }

    private static String counts(SaleTables tables) {
        StringBuilder b = new StringBuilder();
        for (String t : SaleTables.TABLES) {
            if (b.length() > 0) b.append(", ");
            b.append(t).append(' ').append(tables.rows(t));
        }
        return b.toString();
    }

    /** A bar on stderr when it is a terminal ({@link ProgressBar}); otherwise nothing until the "loaded" line. */
    private static SaleTables.Progress progress() {
        return new SaleTables.Progress() {
            private ProgressBar bar;

            @Override
            public void started(long records) {
                bar = new ProgressBar("loading", records);
                bar.update(0);
            }

            @Override
            public void read(long records) {
                bar.update(records);
            }
        };
    }
}
