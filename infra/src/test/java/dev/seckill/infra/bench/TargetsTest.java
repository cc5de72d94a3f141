package dev.seckill.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each target ({@link Targets}) is checked in its row of docs/performance.md's "Current figures" (a table made from
 * the benchmarks' documents): a target no row checks — one whose benchmark's document is not in the table, or whose
 * row was renamed — fails here.
 */
@Tag("fast")
class TargetsTest {
    private static final Path PERFORMANCE = root().resolve("docs/performance.md");

    @Test
    void everyTargetIsCheckedInItsRowOfTheCurrentFigures() throws IOException {
        List<String[]> rows = currentFigures();
        String[] header = rows.get(0);
        int target = Arrays.asList(header).indexOf("target");
        assertThat(target)
                .as("the column of targets in " + Arrays.toString(header))
                .isPositive();
        for (Targets t : Targets.values()) {
            List<String[]> mine = rows.stream()
                    .filter(r -> r[0].equals(t.row) || r[0].startsWith(t.row + " ("))
                    .toList();
            assertThat(mine).as("the row of " + t + " (\"" + t.row + "\")").hasSize(1);
            assertThat(mine.get(0)[target]).as("the targets of " + t + "'s row").contains(t.stated);
            assertThat(t.stated).as(t + " states its bound").contains(t.bound().replace(".0", ""));
        }
    }

    @Test
    void aRatioMeetsItsTargetOnTheRightSideOfTheBound() {
        assertThat(Targets.GATEWAY_CLOSED_LOOP.met(0.5)).isTrue();
        assertThat(Targets.GATEWAY_CLOSED_LOOP.met(0.49)).isFalse();
        assertThat(Targets.HOSTILE_FLOOD.met(2.0)).isTrue();
        assertThat(Targets.HOSTILE_FLOOD.verdict(2.01)).isEqualTo("MISSED");
        assertThat(Targets.COLD_START.met(Double.NaN))
                .as("a ratio not measured")
                .isFalse();
        assertThat(Targets.HOT_TWO_BUCKETS.bound()).isEqualTo("≥ ×1.6");
        assertThat(Targets.HOSTILE_FLOOD.bound()).isEqualTo("≤ ×2");
        assertThat(Targets.DECIDE_ONE_GOODS.bound()).isEqualTo("≥ 31,000/s");
        assertThat(Targets.ANSWER_OPEN_P99.met(150)).isTrue();
        assertThat(Targets.ANSWER_OPEN_P99.met(150.1)).isFalse();
    }

    /** The "Current figures" table's rows, the header first, each split into its cells ({@code \|} kept in a cell). */
    static List<String[]> currentFigures() throws IOException {
        List<String> lines = Files.readAllLines(PERFORMANCE);
        int at = lines.indexOf("## Current figures");
        assertThat(at).as("docs/performance.md has its Current figures").isNotNegative();
        List<String[]> rows = new ArrayList<>();
        for (String l : lines.subList(at + 1, lines.size())) {
            if (l.startsWith("## ")) break;
            if (!l.startsWith("| ") || l.startsWith("|---")) continue;
            String[] cells = l.substring(2, l.length() - 2).split(" (?<!\\\\)\\| ", -1);
            for (int i = 0; i < cells.length; i++) cells[i] = cells[i].trim();
            rows.add(cells);
        }
        return rows;
    }

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs/performance.md"))) p = p.getParent();
        if (p == null)
            throw new IllegalStateException(
                    "no docs/performance.md above " + Path.of("").toAbsolutePath());
        return p;
    }
}
