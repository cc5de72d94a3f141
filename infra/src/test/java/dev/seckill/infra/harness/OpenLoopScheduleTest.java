package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class OpenLoopScheduleTest {
    private static final long MS = 1_000_000;

    @Test
    void requestsAreDueOnTheRateFromTheStart() {
        OpenLoopSchedule s = new OpenLoopSchedule(1_000 * MS, 2000);
        assertThat(s.dueNanos(0)).isEqualTo(1_000 * MS);
        assertThat(s.dueNanos(1)).isEqualTo(1_000 * MS + MS / 2);
        assertThat(s.dueNanos(2000)).isEqualTo(2_000 * MS);
    }

    @Test
    void aLateTickHandsOutEveryOverdueRequestWithItsOwnScheduledTime() {
        OpenLoopSchedule s = new OpenLoopSchedule(0, 1000);
        assertThat(s.takeDue(0)).isZero();
        assertThat(s.takeDue(0)).isEqualTo(-1); // the next is due at 1 ms
        // the sender stalled for 50 ms (a GC pause, a busy loop): what became due meanwhile keeps its due time,
        // so its latency includes the stall (no coordinated omission)
        List<Long> due = new ArrayList<>();
        for (long d; (d = s.takeDue(50 * MS)) >= 0; ) due.add(d);
        assertThat(due).hasSize(50).startsWith(MS, 2 * MS).endsWith(50 * MS);
        assertThat(s.issued()).isEqualTo(51);
    }

    @Test
    void theScheduleDoesNotWaitForAnswers_nothingIsDueEarly() {
        OpenLoopSchedule s = new OpenLoopSchedule(0, 100);
        for (long now = 0; now <= 1_002 * MS; now += 3 * MS) {
            for (long d; (d = s.takeDue(now)) >= 0; ) assertThat(d).isLessThanOrEqualTo(now);
        }
        assertThat(s.issued()).isEqualTo(101); // 0, 10 ms, …, 1,000 ms
    }

    @Test
    void aRateMustBePositive() {
        assertThatThrownBy(() -> new OpenLoopSchedule(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
