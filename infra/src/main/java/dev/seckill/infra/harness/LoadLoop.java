package dev.seckill.infra.harness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * One event loop's lanes of an {@link HttpLoad} run and how requests are handed to them, touched only on that loop:
 * closed loop (each lane sends this loop's next request when its last is answered) or open loop (requests become due
 * by an {@link OpenLoopSchedule}, queue, and go to the next free lane; each one's latency counts from when it was due).
 */
final class LoadLoop {
    /** One connection's worth of sending: one request in flight; it calls {@link #free} once answered. */
    interface Lane {
        void send(int i);
    }

    final LoadRun run;
    final ArrayDeque<Lane> idle = new ArrayDeque<>();
    private final Executor thread;
    private final Function<Runnable, Runnable> everyMillisecond;
    private final ArrayDeque<Integer> dueQueue = new ArrayDeque<>();
    private int issued;
    private OpenLoopSchedule schedule;
    private int first;
    private int stride;
    private volatile Runnable stopTicker;

    /**
     * @param thread           runs a task on this loop's thread
     * @param everyMillisecond starts a task every millisecond on this loop's thread (called on it), returns its stop
     */
    LoadLoop(LoadRun run, Executor thread, Function<Runnable, Runnable> everyMillisecond) {
        this.run = run;
        this.thread = thread;
        this.everyMillisecond = everyMillisecond;
    }

    /** Requests {@code first, first + stride, …}: a closed loop when {@code rate} is 0, else at {@code rate} per second. */
    void start(int first, int stride, double rate) {
        this.first = first;
        this.stride = stride;
        thread.execute(() -> {
            if (rate <= 0) {
                List<Lane> lanes = new ArrayList<>(idle);
                idle.clear();
                for (Lane l : lanes) sendNextClosed(l);
            } else {
                schedule = new OpenLoopSchedule(run.start, rate);
                openTick();
                stopTicker = everyMillisecond.apply(this::openTick);
            }
        });
    }

    void stop() {
        Runnable s = stopTicker;
        if (s != null) s.run();
    }

    private void sendNextClosed(Lane lane) {
        int i = first + issued * stride;
        if (i >= run.requests()) return;
        issued++;
        run.due[i] = System.nanoTime();
        lane.send(i);
    }

    /** What has become due joins the queue; idle lanes take from it. */
    private void openTick() {
        long now = System.nanoTime();
        while (true) {
            int i = first + schedule.issued() * stride;
            if (i >= run.requests()) break;
            long due = schedule.takeDue(now);
            if (due < 0) break;
            run.due[i] = due;
            dueQueue.add(i);
        }
        while (!dueQueue.isEmpty() && !idle.isEmpty()) idle.poll().send(dueQueue.poll());
    }

    /** A lane's request was answered: it sends the next one, or waits in the idle queue for one to be due. */
    void free(Lane lane) {
        if (schedule == null) {
            sendNextClosed(lane);
            return;
        }
        Integer i = dueQueue.poll();
        if (i == null) idle.add(lane);
        else lane.send(i);
    }
}
