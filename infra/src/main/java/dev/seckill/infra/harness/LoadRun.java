package dev.seckill.infra.harness;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * What every lane of an {@link HttpLoad} run shares: who request i is from (drawn, seeded, before the clock starts),
 * when it was due, and where its answer goes (latency, status counts, whether it was a 200, the accepted ids).
 */
final class LoadRun {
    final LoadSpec spec;
    /** Request i's buyer. */
    final long[] user;

    final long[] latencies;
    final long[] due;
    /** Whether request i was answered 200: with {@code Prefer: wait}, the answer that carries the outcome. */
    final boolean[] final200;
    /** The requestIds of the 202s, or null when the spec does not keep them. */
    final Set<String> acceptedIds;

    final CountDownLatch finished;
    final IntConsumer progress;
    final AtomicInteger done = new AtomicInteger();
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
    private final Map<Long, String> bearers = new HashMap<>();
    volatile long start;

    LoadRun(LoadSpec spec, IntConsumer progress) {
        this.spec = spec;
        int n = spec.requests();
        this.user = new long[n];
        Random random = new Random(spec.seed());
        for (int i = 0; i < n; i++) user[i] = spec.firstUser() + random.nextInt(spec.users());
        this.latencies = new long[n];
        this.due = new long[n];
        this.final200 = new boolean[n];
        this.acceptedIds = spec.keepIds() ? ConcurrentHashMap.newKeySet() : null;
        this.finished = new CountDownLatch(n);
        this.progress = progress;
    }

    int requests() {
        return user.length;
    }

    /** The Authorization header of request i's buyer (minted once per buyer, before the clock), or null. */
    String bearer(int i) {
        return spec.bearerOf() == null ? null : bearers.computeIfAbsent(user[i], spec.bearerOf()::apply);
    }

    /** Request i's client requestId, or null when the gateway assigns it. */
    String requestId(int i) {
        return spec.requestIdPrefix() == null ? null : spec.requestIdPrefix() + i;
    }

    /** Request i's answer: {@code status} -1 when it had none (the connection failed). */
    void answered(int i, int status, long now) {
        latencies[i] = (now - due[i]) / 1000;
        if (status > 0) byStatus.merge(status, 1L, Long::sum);
        else errors.incrementAndGet();
        if (status == 202) accepted.incrementAndGet();
        if (status == 200) final200[i] = true;
        int n = done.incrementAndGet();
        if ((n & 1023) == 0 || n == user.length) progress.accept(n);
        finished.countDown();
    }

    /** Whether the ids of the 202s are kept: a lane reads a 202's body only then. */
    boolean keepsIds() {
        return acceptedIds != null;
    }

    void acceptedId(String body) {
        acceptedIds.add(PurchaseHttp.requestId(body));
    }
}
