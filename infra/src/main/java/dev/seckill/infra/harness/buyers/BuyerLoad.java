package dev.seckill.infra.harness.buyers;

import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.PurchaseHttp.Reply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The one load generator of {@code bench strategies}: a closed loop of buyers over HTTP (Vert.x client), the same for
 * every strategy. A buyer sends {@code POST /api/purchases} and holds the reply until it has the final outcome: an
 * answer in the response, or — from the pipeline — a 202 followed by {@code GET /api/purchases/{requestId}} long
 * polls. A request that got no answer (the server was down) is sent again every 100 ms, as a client would retry, for
 * up to a minute (then it counts as no answer). The time to answer runs from the first send to the outcome in hand.
 */
public final class BuyerLoad {
    /** The workload; {@code waitSeconds} &gt; 0 adds {@code Prefer: wait=N}. */
    public record Spec(int port, long goodsId, int requests, int concurrency, int users, long seed, int waitSeconds) {}

    public static final String NO_ANSWER = "NO_ANSWER";
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long RETRY_MS = 100;

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
    private HttpClient client;
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
        client = PurchaseHttp.client(vertx, spec.concurrency(), 2_000);
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

    /** Sends request i; with no answer at all (the server is down) the buyer retries it after a pause, for a minute. */
    private void purchase(int i, long sent) {
        purchase(i, sent, null);
    }

    /** As above, with the requestId the gateway named in a 503 ("UNKNOWN: retry with this requestId"), or null. */
    private void purchase(int i, long sent, String requestId) {
        String body = PurchaseHttp.body(spec.goodsId(), user[i], 1, requestId);
        send(HttpMethod.POST, PurchaseHttp.PATH, body).onComplete(ar -> {
            if (ar.succeeded()) handle(i, sent, ar.result());
            else if (System.nanoTime() - sent > GIVE_UP_NANOS) answered(i, sent, NO_ANSWER);
            else vertx.setTimer(RETRY_MS, t -> purchase(i, sent, requestId));
        });
    }

    /** A call through {@link PurchaseHttp}, waiting for its answer however long (a paused server answers late). */
    private Future<Reply> send(HttpMethod method, String path, String body) {
        return PurchaseHttp.send(
                client,
                spec.port(),
                method,
                path,
                null,
                body == null ? null : Buffer.buffer(body),
                spec.waitSeconds(),
                0);
    }

    private void handle(int i, long sent, Reply r) {
        JsonObject body = r.body();
        // a purchase's status is a word; a problem's (RFC 9457, every 4xx/5xx) is the HTTP status, a number
        String status = body.getValue("status") instanceof String s ? s : "HTTP_" + r.status();
        if (r.status() == 202 && body.containsKey("requestId")) {
            poll(i, sent, body.getString("requestId"));
        } else if (r.status() == 429) {
            answered(i, sent, Answer.RATE_LIMITED.name());
        } else if (r.status() == 503 && body.containsKey("requestId") && System.nanoTime() - sent < GIVE_UP_NANOS) {
            // the pipeline's 503 says UNKNOWN (the command may have been taken): the client retries with the
            // requestId it was given after Retry-After, as the gateway's contract asks, and learns the true outcome
            long after = 1_000L * body.getLong("retryAfterSeconds", 1L);
            vertx.setTimer(after, t -> purchase(i, sent, body.getString("requestId")));
        } else if (r.status() >= 500) {
            answered(i, sent, Answer.BUSY.name());
        } else {
            times.outcome(i, body);
            answered(i, sent, status);
        }
    }

    /** The pipeline's 202: long polls until the outcome is known (or a minute has passed: no answer). */
    private void poll(int i, long sent, String requestId) {
        if (System.nanoTime() - sent > GIVE_UP_NANOS) {
            answered(i, sent, NO_ANSWER);
            return;
        }
        send(HttpMethod.GET, PurchaseHttp.PATH + "/" + requestId, null).onComplete(ar -> {
            JsonObject body = ar.succeeded() ? ar.result().body() : new JsonObject();
            String status = !ar.succeeded() ? "" : body.getValue("status") instanceof String s ? s : "HTTP_200";
            if (ar.succeeded() && ar.result().status() == 200 && !status.equals("PENDING")) {
                times.outcome(i, body);
                answered(i, sent, status);
            } else if (ar.succeeded() && (ar.result().status() == 202 || status.equals("PENDING"))) {
                // not decided yet: a long poll ended at its deadline (202), or the gateway said PENDING (200)
                poll(i, sent, requestId);
            } else {
                vertx.setTimer(RETRY_MS, t -> poll(i, sent, requestId)); // the gateway is restarting
            }
        });
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
