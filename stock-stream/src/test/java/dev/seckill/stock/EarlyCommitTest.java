package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EarlyCommitTest {
    @Test void aCaughtUpStreamCommitsAtOnce_atMostOncePerWindow() {
        EarlyCommit e = new EarlyCommit(20);
        assertThat(e.due(995, 1_000)).isTrue();           // a command 5 ms old: caught up
        assertThat(e.due(1_005, 1_010)).isFalse();        // 10 ms after the last request: wait for the window
        assertThat(e.due(1_015, 1_020)).isTrue();         // 20 ms after it
    }

    @Test void aBacklogCommitsAtTheInterval() {
        EarlyCommit e = new EarlyCommit(20);
        assertThat(e.due(1_000, 1_021)).isFalse();        // the newest decided command is 21 ms old: behind
        assertThat(e.due(0, 60_000)).isFalse();           // a preloaded backlog
        assertThat(e.due(59_990, 60_000)).isTrue();       // caught up again
    }

    @Test void offWhenZero_andAMissingTimestampIsNeverCaughtUp() {
        assertThat(new EarlyCommit(0).due(1_000, 1_000)).isFalse();
        assertThat(new EarlyCommit(20).due(-1, 1_000)).isFalse();
    }
}
