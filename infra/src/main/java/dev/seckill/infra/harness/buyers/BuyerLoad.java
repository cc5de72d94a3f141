package dev.seckill.infra.harness.buyers;

import dev.seckill.infra.harness.PurchaseHttp;
import io.vertx.core.Vertx;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The one load generator of {@code bench strategies} and the chaos runs: a closed loop of buyers, the same for every
 * strategy, each following its purchase to the final outcome through the {@link BuyerClient} ({@link
 * RetryPolicy#closedLoop}: an answer in the response, or — from the pipeline — a 202 followed by {@code GET
 * /api/purchases/{requestId}} long polls; no reply sent again every 100 ms for up to a minute, then no answer). The
 * time to answer runs from the first send to the outcome in hand.
 */
public final class BuyerLoad {
    /** The workload; {@code waitSeconds} &gt; 0 adds {@code Prefer: wait=N}. */
    public record Spec(int port, long goodsId, int requests, int concurrency, int users, long seed, int waitSeconds) {}

    public static final String NO_ANSWER = FinalAnswer.NO_ANSWER;

    private final Spec spec;
    private final long[] user;
    public final String[] outcome;
    public final long[] latencyMicros;
    private final long[] sentAt;
    private final long[] answeredAt;
    private final RequestTimestamps times;
    private final BuyerAnswers answers;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger successes = new AtomicInteger();
    private final CountDownLatch finished;
    private final IntConsumer progress;
    private final int faultAt;
    private final Runnable fault;
    private final AtomicInteger faultStarted = new AtomicInteger();
    private volatile Thread faultThread;
    /** After the fault starts, the purchases left are sent no faster than spread over this long (0: at once). */
    private long spreadAfterFaultNanos;
    /** When the fault started (System.nanoTime) and the first request left then, once it has. */
    private volatile long faultStartedAt;

    private volatile int leftAtFault = -1;
    private Vertx vertx;
    private BuyerClient buyers;
    public long elapsedNanos;

    public BuyerLoad(Spec spec, IntConsumer progress, int faultAtSuccesses, Runnable fault) {
        this.spec = spec;
        this.progress = progress;
        this.faultAt = faultAtSuccesses;
        this.fault = fault;
        this.user = new long[spec.requests()];
        this.outcome = new String[spec.requests()];
        this.latencyMicros = new long[spec.requests()];
        this.sentAt = new long[spec.requests()];
        this.answeredAt = new long[spec.requests()];
        this.times = new RequestTimestamps(spec.requests());
        this.answers = new BuyerAnswers(outcome, sentAt, answeredAt, latencyMicros, times);
        Random random = new Random(spec.seed());
        for (int i = 0; i < user.length; i++) user[i] = 1 + random.nextInt(spec.users());
        this.finished = new CountDownLatch(spec.concurrency());
    }

    /**
     * Spreads the purchases left when the fault starts over at least {@code millis}: the buyers go on at once up to the
     * fault, then no faster than that, so every strike of a fault lands while they still buy (a closed loop that sold
     * out in a second would otherwise have sent everything before a fault that takes seconds to strike).
     */
    public BuyerLoad spreadAfterFault(long millis) {
        this.spreadAfterFaultNanos = TimeUnit.MILLISECONDS.toNanos(millis);
        return this;
    }

    /** Waits for the fault (kill and restart) to have finished, if one was started. */
    public void awaitFault() throws InterruptedException {
        if (faultThread != null) faultThread.join();
    }

    /** How many requests the buyers have not sent yet: a fault injected now is felt by at least that many. */
    public int unsent() {
        return Math.max(0, spec.requests() - next.get());
    }

    /** Whether every request has its answer (the load is over). */
    public boolean finished() {
        return finished.getCount() == 0;
    }

    public long user(int i) {
        return user[i];
    }

    /** What the buyers were told, when: read live (a fault waits for its first answer) or after the load. */
    public BuyerAnswers answers() {
        return answers;
    }

    /** How many requests have their final answer so far. */
    public int answered() {
        return done.get();
    }

    /** How many of them were SUCCESS. */
    public int successes() {
        return successes.get();
    }

    public BuyerLoad run() throws InterruptedException {
        vertx = Vertx.vertx();
        buyers = new BuyerClient(
                vertx,
                PurchaseHttp.client(vertx, spec.concurrency(), 2_000),
                spec.port(),
                RetryPolicy.closedLoop(spec.waitSeconds()),
                (method, status) -> {});
        long start = System.nanoTime();
        try {
            for (int s = 0; s < spec.concurrency(); s++) vertx.runOnContext(v -> next());
            if (!finished.await(20, TimeUnit.MINUTES)) throw new IllegalStateException("load did not finish in 20 min");
            elapsedNanos = System.nanoTime() - start;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
        return this;
    }

    private void next() {
        int i = next.getAndIncrement();
        if (i >= spec.requests()) {
            finished.countDown();
            return;
        }
        long wait = notBefore(i) - System.nanoTime();
        if (wait > 1_000_000) {
            vertx.setTimer(wait / 1_000_000, t -> send(i));
            return;
        }
        send(i);
    }

    private void send(int i) {
        times.sent(i);
        purchase(i, System.nanoTime());
    }

    /** When request i may be sent (System.nanoTime): at once, or its share of the spread after the fault. */
    private long notBefore(int i) {
        int first = leftAtFault;
        if (spreadAfterFaultNanos == 0 || first < 0 || i < first) return 0;
        int left = spec.requests() - first;
        return faultStartedAt + spreadAfterFaultNanos * (i - first) / Math.max(1, left);
    }

    /** Sends request i through the one buyer client; its answer as the load records it. */
    private void purchase(int i, long sent) {
        buyers.buy(spec.goodsId(), user[i], 1, null, null).onComplete(ar -> {
            FinalAnswer a = ar.result();
            if (a.code() == 200) times.outcome(i, a.body());
            answered(i, sent, word(a));
        });
    }

    /**
     * What the buyer was told, as one word: the decision; a 429 as RATE_LIMITED and a 5xx as BUSY (what the baselines
     * answer, as the pipeline's gateway would); any other refusal as {@code HTTP_<code>}; NO_ANSWER after a minute.
     */
    private static String word(FinalAnswer a) {
        if (a.code() == 429) return Answer.RATE_LIMITED.name();
        if (a.code() >= 500) return Answer.BUSY.name();
        return a.word();
    }

    private void answered(int i, long sent, String what) {
        sentAt[i] = sent;
        answeredAt[i] = System.nanoTime();
        times.answered(i);
        outcome[i] = what;
        latencyMicros[i] = (System.nanoTime() - sent) / 1_000;
        int ok = what.equals(Answer.SUCCESS.name()) ? successes.incrementAndGet() : successes.get();
        int all = done.incrementAndGet();
        // the fault strikes mid-sale: when half the stock is confirmed sold, or a quarter of the requests answered
        if (fault != null && (ok >= faultAt || all >= spec.requests() / 4) && faultStarted.getAndIncrement() == 0) {
            faultStartedAt = System.nanoTime();
            leftAtFault = next.get();
            faultThread = new Thread(fault, "fault");
            faultThread.start();
        }
        progress.accept(all);
        next();
    }
}
