package dev.seckill.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The benchmarks' one table printer: aligned text, Markdown and the rows for --json from the same cells. */
@Tag("fast")
class TextTableTest {
    private final TextTable table = TextTable.of("strategy", "answers/s", "verdict")
            .right(1)
            .row("pipeline", "16,786", "met")
            .row("sync", "9", "P(a | b)");

    @Test
    void textAlignsEachColumnToItsWidestCell_numbersToTheRight() {
        assertThat(table.text()).isEqualTo("""
                        strategy  answers/s  verdict
                        pipeline     16,786  met
                        sync              9  P(a | b)
                        """);
    }

    @Test
    void markdownIsATableOfTheSameCells_aBarInACellEscaped() {
        assertThat(table.markdown()).isEqualTo("""
                        | strategy | answers/s | verdict |
                        |---|---|---|
                        | pipeline | 16,786 | met |
                        | sync | 9 | P(a \\| b) |
                        """);
    }

    @Test
    void theDocumentedRowsMapTheHeaderToTheCells_andARowOfTheWrongWidthIsRefused() {
        assertThat(table.documented())
                .first()
                .isEqualTo(Map.of("strategy", "pipeline", "answers/s", "16,786", "verdict", "met"));
        assertThat(table.rows()).extracting(r -> r[0]).isEqualTo(List.of("pipeline", "sync"));
        assertThatThrownBy(() -> table.row("one", "two"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 cells in a table of 3 columns");
    }
}
