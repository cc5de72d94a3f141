package dev.seckill.infra.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one printer of the benchmarks' tables: a header and rows of cells (each already formatted as the reader sees
 * it), printed as columns aligned in plain text — numbers to the right where asked — or as a Markdown table, and given
 * to {@code --json} as one map per row from the header to the cell.
 */
public final class TextTable {
    private final String[] header;
    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    private TextTable(String[] header) {
        this.header = header.clone();
        this.right = new boolean[header.length];
    }

    /** A table of these columns, every one aligned to the left in text. */
    public static TextTable of(String... header) {
        if (header.length == 0) throw new IllegalArgumentException("a table needs at least one column");
        return new TextTable(header);
    }

    /** Aligns these columns (0-based) to the right in text: columns of numbers. */
    public TextTable right(int... columns) {
        for (int c : columns) right[c] = true;
        return this;
    }

    /** A row of cells, one per column ({@code String.valueOf} each). */
    public TextTable row(Object... cells) {
        if (cells.length != header.length)
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + header.length
                    + " columns: " + Arrays.toString(cells));
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) r[i] = String.valueOf(cells[i]);
        rows.add(r);
        return this;
    }

    /** The rows as they were given. */
    public List<String[]> rows() {
        return List.copyOf(rows);
    }

    /** Columns two spaces apart, each as wide as its widest cell; a line per row, the header first. */
    public String text() {
        int[] w = new int[header.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = header[i].length();
            for (String[] r : rows) w[i] = Math.max(w[i], r[i].length());
        }
        StringBuilder b = new StringBuilder();
        line(b, header, w);
        for (String[] r : rows) line(b, r, w);
        return b.toString();
    }

    private void line(StringBuilder b, String[] cells, int[] w) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(w[i] - cells[i].length());
            l.append(right[i] ? pad + cells[i] : cells[i] + pad);
            if (i < cells.length - 1) l.append("  ");
        }
        b.append(l.toString().stripTrailing()).append('\n');
    }

    /** A Markdown table: the header, its rule, a line per row ({@code |} in a cell escaped). */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        markdownLine(b, header);
        b.append("|---".repeat(header.length)).append("|\n");
        for (String[] r : rows) markdownLine(b, r);
        return b.toString();
    }

    private static void markdownLine(StringBuilder b, String[] cells) {
        b.append('|');
        for (String c : cells) b.append(' ').append(c.replace("|", "\\|")).append(" |");
        b.append('\n');
    }

    /** The rows for {@code --json}: each a map from the header to its cell, as printed. */
    public List<Map<String, String>> documented() {
        List<Map<String, String>> all = new ArrayList<>();
        for (String[] r : rows) {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) m.put(header[i], r[i]);
            all.add(m);
        }
        return all;
    }
}
