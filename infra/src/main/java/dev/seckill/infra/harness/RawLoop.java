package dev.seckill.infra.harness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/** One event loop's connections and, in an open loop, its queue of due requests (touched only on that loop). */
final class RawLoop {
    final RawRun run;
    final List<RawConnection> conns = new ArrayList<>();
    final ArrayDeque<RawConnection> idle = new ArrayDeque<>();
    final ArrayDeque<Integer> dueQueue = new ArrayDeque<>();
    private int issued;
    private OpenLoopSchedule schedule;
    private int first;
    private int stride;
    ScheduledFuture<?> ticker;

    RawLoop(RawRun run) {
        this.run = run;
    }

    /** Closed loop: every connection of this loop sends; each answer sends the next request of this loop's share. */
    void closed(int first, int stride) {
        this.first = first;
        this.stride = stride;
        for (RawConnection c : conns) sendNextClosed(c);
    }

    private void sendNextClosed(RawConnection c) {
        int i = first + issued * stride;
        if (i >= run.request.length) return;
        issued++;
        run.due[i] = System.nanoTime();
        c.send(i);
    }

    /** Open loop: requests {@code first, first + stride, …} at {@code rate} per second from the run's start. */
    void open(int first, int stride, double rate) {
        this.first = first;
        this.stride = stride;
        this.schedule = new OpenLoopSchedule(run.start, rate);
        openTick();
    }

    /** What has become due joins the queue; idle connections take from it. */
    void openTick() {
        if (schedule == null) return;
        long now = System.nanoTime();
        while (true) {
            int i = first + schedule.issued() * stride;
            if (i >= run.request.length) break;
            long due = schedule.takeDue(now);
            if (due < 0) break;
            run.due[i] = due;
            dueQueue.add(i);
        }
        while (!dueQueue.isEmpty() && !idle.isEmpty()) idle.poll().send(dueQueue.poll());
    }

    void free(RawConnection c) {
        if (schedule == null) {
            sendNextClosed(c);
            return;
        }
        Integer i = dueQueue.poll();
        if (i == null) idle.add(c);
        else c.send(i);
    }
}
