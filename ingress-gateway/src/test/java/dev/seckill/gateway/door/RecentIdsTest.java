package dev.seckill.gateway.door;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.gateway.Racing;
import dev.seckill.gateway.status.Payload;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class RecentIdsTest {
    static final Payload ONE = new Payload(1, 1, 1);

    @Test
    void givenAnAcceptedId_thenARetryIsRecognisedAndAnotherIdIsNot() {
        RecentIds ids = new RecentIds(100);
        ids.add("r-1", ONE);
        assertThat(ids.contains("r-1")).isTrue();
        assertThat(ids.contains("r-2")).isFalse();
    }

    @Test
    void givenMoreIdsThanTheCapacity_thenTheMostRecentHalfIsKeptAndTheSizeStaysBounded() {
        RecentIds ids = new RecentIds(1_000);
        for (int i = 0; i < 10_000; i++) {
            ids.add("id-" + i, ONE);
            assertThat(ids.size()).isLessThanOrEqualTo(1_000);
        }
        for (int i = 10_000 - 500; i < 10_000; i++)
            assertThat(ids.contains("id-" + i)).as("id-%d", i).isTrue();
        assertThat(ids.contains("id-0")).as("the oldest are forgotten").isFalse();
        assertThat(ids.contains("id-8000")).isFalse();
    }

    @Test
    void aCapacityBelowTwoIsRefused() {
        assertThatThrownBy(() -> new RecentIds(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
    }

    /**
     * Four event loops adding at once, generations turning over all the time: an id is known after its add until
     * two generations have turned over since the add began (a thread can be descheduled that long on two cores, so
     * the test counts turnovers instead of assuming it was not). A turnover that let readers see neither the full
     * generation nor the new one, or an add lost in a turnover, shows up as a miss.
     */
    @RepeatedTest(10)
    void givenRacingThreads_thenAnIdIsKnownUntilTwoTurnoversAndTheBoundHolds() throws Exception {
        int capacity = 200; // a turnover every 100 adds: many chances to catch a reader in one
        int threads = 4;
        RecentIds ids = new RecentIds(capacity);
        AtomicReference<String> missed = new AtomicReference<>();
        AtomicLong largest = new AtomicLong();
        Racing.run(threads, me -> {
            for (int i = 0; i < 50_000; i++) {
                String id = me + "-" + i;
                long before = ids.turnovers();
                ids.add(id, ONE);
                if (!ids.contains(id) && ids.turnovers() < before + 2) {
                    missed.compareAndSet(null, id + " after " + (ids.turnovers() - before) + " turnover(s)");
                }
                largest.accumulateAndGet(ids.size(), Math::max);
            }
        });
        assertThat(missed.get()).as("an id unknown before two turnovers").isNull();
        assertThat(ids.turnovers())
                .as("generations turned over during the race")
                .isGreaterThan(1_000);
        assertThat(largest.get()).isLessThanOrEqualTo(capacity + threads);
    }

    /**
     * A reader spinning on an id while its generation turns over must never miss it: a turnover that replaced the
     * current generation before keeping the full one as previous would show here (with the two writes of a turnover
     * swapped and a yield between them, this test fails).
     */
    @Test
    void givenAReaderDuringATurnover_thenTheIdOfTheFullGenerationIsNeverMissing() throws Exception {
        int generation = 50;
        for (int cycle = 0; cycle < 2_000; cycle++) {
            RecentIds ids = new RecentIds(2 * generation);
            ids.add("sentinel", ONE);
            AtomicBoolean reading = new AtomicBoolean(true);
            AtomicBoolean missedIt = new AtomicBoolean();
            Thread reader = new Thread(() -> {
                while (reading.get()) if (!ids.contains("sentinel")) missedIt.set(true);
            });
            reader.start();
            for (int i = 1; i < generation; i++)
                ids.add("w-" + i, ONE); // the sentinel's generation fills and turns over once
            reading.set(false);
            reader.join();
            assertThat(ids.turnovers()).isEqualTo(1);
            assertThat(missedIt.get())
                    .as("cycle %d: the sentinel was missing during the turnover", cycle)
                    .isFalse();
        }
    }
}
