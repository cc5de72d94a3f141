package dev.seckill.infra.ops.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code sql --json}: one query's answer as JSON holds the rows and numbers of its text table (DuckDB in memory). */
@Tag("fast")
class ResultTableTest {
    static final String QUERY =
            "SELECT * FROM (VALUES ('SUCCESS', 20, 1.5), ('SOLD_OUT', 1234, NULL)) t(outcome, n, ms)" + " ORDER BY n";

    @Test
    void theJsonAnswer_holdsTheTextTablesRowsAndNumbers() throws Exception {
        String text;
        JsonNode json;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement()) {
            try (ResultSet rs = st.executeQuery(QUERY)) {
                text = ResultTable.render(rs);
            }
            try (ResultSet rs = st.executeQuery(QUERY)) {
                json = new ObjectMapper().readTree(ResultTable.json(rs));
            }
        }
        assertThat(text)
                .isEqualTo(
                        "outcome      n    ms\n--------  ----  ----\nSUCCESS     20   1.5\nSOLD_OUT  1234  NULL\n(2 rows)\n");
        assertThat(json.get("columns")).extracting(JsonNode::asText).containsExactly("outcome", "n", "ms");
        assertThat(json.get("total").asLong()).isEqualTo(2);
        JsonNode first = json.get("rows").get(0);
        assertThat(first.get("outcome").asText()).isEqualTo("SUCCESS");
        assertThat(first.get("n").isNumber()).isTrue();
        assertThat(first.get("n").asLong()).isEqualTo(20);
        assertThat(first.get("ms").asDouble()).isEqualTo(1.5);
        JsonNode second = json.get("rows").get(1);
        assertThat(second.get("n").asLong()).isEqualTo(1234);
        assertThat(second.get("ms").isNull()).isTrue();
    }
}
