package dev.seckill.infra.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;

/**
 * Where a command that reports measured figures writes — every benchmark, and {@code demo}. Its report goes to {@link
 * #text()}: stdout — or stderr with {@code --json}, when stdout gets one JSON document instead: {@code {"benchmark" (or
 * "command"), "flags", ...}} and each figure the report prints, by name ({@link #put}), with the reference measured in
 * the same run beside it. Progress bars and notes go to stderr either way.
 */
public final class ReportOutput {
    private final PrintStream stdout;
    private final PrintStream text;
    private final ObjectNode document;

    private ReportOutput(PrintStream stdout, PrintStream text, ObjectNode document) {
        this.stdout = stdout;
        this.text = text;
        this.document = document;
    }

    /**
     * The output of {@code ./seckill bench <benchmark>} run with {@code f}: the report on {@code stdout}; with {@code
     * --json} the report on {@code notes} (stderr) and the document on {@code stdout}.
     */
    public static ReportOutput of(String benchmark, Flags f, PrintStream stdout, PrintStream notes) {
        return of("benchmark", benchmark, f, stdout, notes);
    }

    /** The output of {@code ./seckill <command>} (not a benchmark) run with {@code f}: as {@link #of}'s. */
    public static ReportOutput ofCommand(String command, Flags f, PrintStream stdout, PrintStream notes) {
        return of("command", command, f, stdout, notes);
    }

    private static ReportOutput of(String kind, String name, Flags f, PrintStream stdout, PrintStream notes) {
        if (!f.has("json")) return new ReportOutput(stdout, stdout, null);
        ObjectNode document = JsonOutput.object();
        document.put(kind, name);
        ObjectNode flags = document.putObject("flags");
        f.effective().forEach((flag, value) -> {
            if (!flag.equals("json")) flags.put(flag, value);
        });
        return new ReportOutput(stdout, notes, document);
    }

    /** A report on {@code out} alone (a benchmark run from code, not from the CLI). */
    public static ReportOutput text(PrintStream out) {
        return new ReportOutput(out, out, null);
    }

    /** Where the report's lines go. */
    public PrintStream text() {
        return text;
    }

    /**
     * A figure of the run under {@code name}: a number, a string, a record or a list of them (as the contracts' mapper
     * writes them). Nothing without {@code --json}.
     */
    public ReportOutput put(String name, Object value) {
        if (document != null) document.set(name, finite(JsonOutput.tree(value)));
        return this;
    }

    /** {@code node} with every NaN or infinite number (a ratio to nothing, a percentile never reached) as null. */
    static JsonNode finite(JsonNode node) {
        if (node.isNumber() && (node.isDouble() || node.isFloat()) && !Double.isFinite(node.asDouble()))
            return NullNode.getInstance();
        if (node instanceof ObjectNode o) o.fields().forEachRemaining(e -> e.setValue(finite(e.getValue())));
        if (node instanceof ArrayNode a) for (int i = 0; i < a.size(); i++) a.set(i, finite(a.get(i)));
        return node;
    }

    /** Whether a document is being made (a benchmark skips work only the document needs otherwise). */
    public boolean json() {
        return document != null;
    }

    /** A command's run: its exit status. */
    @FunctionalInterface
    public interface Run {
        int run() throws Exception;
    }

    /**
     * Runs {@code body}, then {@link #finish}es with its exit status. With {@code --json} stdout is the document's
     * alone: for the run, System.out goes to stderr, so a line any part of it prints there (a service's Console, a
     * stack's notes) cannot break the document.
     */
    public int run(Run body) throws Exception {
        if (document == null) return finish(body.run());
        PrintStream saved = System.out;
        System.setOut(System.err);
        try {
            return finish(body.run());
        } finally {
            System.setOut(saved);
        }
    }

    /** Prints the document on stdout, with {@code --json}; returns {@code exit}. */
    public int finish(int exit) {
        if (document != null) {
            document.put("exit", exit);
            stdout.println(JsonOutput.render(document));
        }
        return exit;
    }
}
