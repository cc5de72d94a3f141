package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class EarlyCommitTest {
    @Test
    void aCaughtUpStreamCommitsAtOnce_atMostOncePerWindow() {
        EarlyCommit e = new EarlyCommit(20, 100);
        assertThat(e.due(995, 1_000)).isTrue(); // a command 5 ms old: caught up
        assertThat(e.due(1_005, 1_010)).isFalse(); // 10 ms after the last request: wait for the window
        assertThat(e.due(1_015, 1_020)).isTrue(); // 20 ms after it
        assertThat(e.due(1_000, 1_099)).isTrue(); // 99 ms old: still younger than the interval
    }

    @Test
    void aBacklogCommitsAtTheInterval() {
        EarlyCommit e = new EarlyCommit(20, 100);
        assertThat(e.due(1_000, 1_100)).isFalse(); // as old as the interval: the interval's commit is as soon
        assertThat(e.due(0, 60_000)).isFalse(); // a preloaded backlog
        assertThat(e.due(59_990, 60_000)).isTrue(); // caught up again
    }

    @Test
    void offWhenZero_andAMissingTimestampIsNeverCaughtUp() {
        assertThat(new EarlyCommit(0, 100).due(1_000, 1_000)).isFalse();
        assertThat(new EarlyCommit(20, 100).due(-1, 50)).isFalse();
    }
}
