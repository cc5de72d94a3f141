package dev.seckill.infra.ops.sql;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.JsonOutput;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's answer as a text table: a header, a rule, one line per row, numbers right-aligned, NULL as {@code NULL};
 * or as JSON ({@link #json}).
 * Values are written with {@link Object#toString()} (locale-free: {@code 1234.5}, never {@code 1 234,5}).
 */
public final class ResultTable {
    /** Rows printed at most; the rest are counted in a last line (add a LIMIT to see a part of them). */
    public static final int MAX_ROWS = 10_000;

    private ResultTable() {}

    public static String render(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        String[] head = new String[n];
        boolean[] numeric = new boolean[n];
        int[] width = new int[n];
        for (int c = 0; c < n; c++) {
            head[c] = md.getColumnLabel(c + 1);
            numeric[c] = isNumeric(md.getColumnType(c + 1));
            width[c] = head[c].length();
        }
        List<String[]> rows = new ArrayList<>();
        long more = 0;
        while (rs.next()) {
            if (rows.size() >= MAX_ROWS) {
                more++;
                continue;
            }
            String[] row = new String[n];
            for (int c = 0; c < n; c++) {
                Object v = rs.getObject(c + 1);
                row[c] = v == null ? "NULL" : v.toString();
                width[c] = Math.max(width[c], row[c].length());
            }
            rows.add(row);
        }
        StringBuilder b = new StringBuilder();
        line(b, head, width, numeric);
        for (int c = 0; c < n; c++) b.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        b.append('\n');
        for (String[] row : rows) line(b, row, width, numeric);
        long total = rows.size() + more;
        b.append('(').append(total).append(total == 1 ? " row" : " rows");
        if (more > 0) b.append(", the first ").append(MAX_ROWS).append(" shown");
        return b.append(")\n").toString();
    }

    /**
     * {@code sql --json}: the answer as one document, {@code {"columns": [...], "rows": [{column: value}], "total": n}}
     * — numbers and booleans as such, NULL as null, anything else as its text; at most {@link #MAX_ROWS} rows, the
     * total counting them all.
     */
    public static String json(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        ObjectNode root = JsonOutput.object();
        ArrayNode columns = root.putArray("columns");
        for (int c = 0; c < n; c++) columns.add(md.getColumnLabel(c + 1));
        ArrayNode rows = root.putArray("rows");
        long total = 0;
        while (rs.next()) {
            if (total++ >= MAX_ROWS) continue;
            ObjectNode row = rows.addObject();
            for (int c = 0; c < n; c++) {
                Object v = rs.getObject(c + 1);
                String label = md.getColumnLabel(c + 1);
                if (v == null) row.putNull(label);
                else if (v instanceof Number || v instanceof Boolean) row.set(label, JsonOutput.tree(v));
                else row.put(label, v.toString());
            }
        }
        root.put("total", total);
        return JsonOutput.render(root);
    }

    private static void line(StringBuilder b, String[] cells, int[] width, boolean[] numeric) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) l.append("  ");
            String pad = " ".repeat(width[c] - cells[c].length());
            l.append(numeric[c] ? pad + cells[c] : cells[c] + pad);
        }
        b.append(l.toString().stripTrailing()).append('\n');
    }

    private static boolean isNumeric(int type) {
        return switch (type) {
            case Types.TINYINT,
                    Types.SMALLINT,
                    Types.INTEGER,
                    Types.BIGINT,
                    Types.FLOAT,
                    Types.REAL,
                    Types.DOUBLE,
                    Types.NUMERIC,
                    Types.DECIMAL -> true;
            default -> false;
        };
    }
}
