package dev.seckill.infra.harness;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/** What every connection of a {@link RawHttpLoad} run shares: the prepared requests and where the answers go. */
final class RawRun {
    final byte[][] request;
    final long[] latencies;
    final long[] due;
    /** Whether request i was answered 200: with {@code Prefer: wait}, the answer that carries the outcome. */
    final boolean[] final200;

    final CountDownLatch finished;
    final IntConsumer progress;
    final AtomicInteger done = new AtomicInteger();
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
    volatile long start;

    RawRun(byte[][] request, IntConsumer progress) {
        this.request = request;
        this.latencies = new long[request.length];
        this.due = new long[request.length];
        this.final200 = new boolean[request.length];
        this.finished = new CountDownLatch(request.length);
        this.progress = progress;
    }

    void answered(int i, int status, long now) {
        latencies[i] = (now - due[i]) / 1000;
        if (status > 0) byStatus.merge(status, 1L, Long::sum);
        else errors.incrementAndGet();
        if (status == 202) accepted.incrementAndGet();
        if (status == 200) final200[i] = true;
        int n = done.incrementAndGet();
        if ((n & 1023) == 0 || n == request.length) progress.accept(n);
        finished.countDown();
    }
}
