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
    void aTaskThatJustStartedCommitsItsFirstDrainAtOnce_evenABacklog() {
        EarlyCommit e = new EarlyCommit(20, 100);
        e.started(); // a takeover: its buyers' purchases waited through the failover
        assertThat(e.due(0, 60_000)).as("the first drain, a backlog").isTrue();
        assertThat(e.due(1_000, 60_050)).as("the next one: a backlog again").isFalse();
        e.started();
        assertThat(e.due(59_990, 60_060))
                .as("a start's first drain, within the window of the last request")
                .isTrue();
        EarlyCommit off = new EarlyCommit(0, 100);
        off.started();
        assertThat(off.due(0, 60_000)).as("off when zero").isFalse();
    }

    @Test
    void offWhenZero_andAMissingTimestampIsNeverCaughtUp() {
        assertThat(new EarlyCommit(0, 100).due(1_000, 1_000)).isFalse();
        assertThat(new EarlyCommit(20, 100).due(-1, 50)).isFalse();
    }
}
