package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.harness.PurchaseHttp;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * The hostile traffic of {@code bench hostile}, on a Vert.x of its own: {@code accounts} authenticated accounts each
 * posting purchases of made-up goodsIds under random client requestIds at {@code perSecond} (their per-user rate limit;
 * an open loop: each sends when due whatever the answers, on as many connections as its burst, and holds back only
 * with ten bursts unanswered), and {@code getConnections} connections each sending
 * unauthenticated {@code GET /api/purchases/<random id>} as fast as the gateway answers them (a closed loop: the next
 * as soon as the last is answered, whatever the answer and whatever its Retry-After).
 */
final class HostileFlood implements AutoCloseable {
    /**
     * What the flood sent and how each request was answered (status 0: no answer, e.g. a refused connection);
     * {@code postsHeldBack}: posts not sent when due because the account had ten bursts unanswered.
     */
    record Counts(
            long posts,
            long gets,
            long postsHeldBack,
            Map<Integer, Long> postAnswers,
            Map<Integer, Long> getAnswers,
            double seconds) {
        long sent() {
            return posts + gets;
        }
    }

    /** Made-up goodsIds are drawn from here up: far from any goods a sale of the run opens. */
    static final long MADE_UP_GOODS = 7_000_000_000L;

    private final Vertx vertx;
    private final HttpClient posts;
    private final HttpClient gets;
    private final int port;
    /** Unanswered posts an account may have: ten bursts (a client that does not wait for the gateway's answers). */
    private final int maxInFlight;

    private final String[] bearers;
    private final AtomicInteger[] inFlight;
    private final ConcurrentLinkedQueue<Long> timers = new ConcurrentLinkedQueue<>();
    private final LongAdder postsSent = new LongAdder();
    private final LongAdder getsSent = new LongAdder();
    private final LongAdder heldBack = new LongAdder();
    private final Map<Integer, LongAdder> postAnswers = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> getAnswers = new ConcurrentHashMap<>();
    private final AtomicInteger getsOut = new AtomicInteger();
    private final long startNanos = System.nanoTime();
    private volatile boolean running = true;
    private Counts stopped;

    private HostileFlood(
            int port, int accounts, long firstAccount, LongFunction<String> bearerOf, int burst, int gets) {
        this.vertx = PurchaseHttp.vertx(Runtime.getRuntime().availableProcessors());
        this.posts = PurchaseHttp.client(vertx, accounts * Math.max(1, burst), 5_000);
        this.gets = PurchaseHttp.client(vertx, gets, 5_000);
        this.port = port;
        this.maxInFlight = 10 * Math.max(1, burst);
        this.bearers = new String[accounts];
        this.inFlight = new AtomicInteger[accounts];
        for (int a = 0; a < accounts; a++) {
            bearers[a] = bearerOf.apply(firstAccount + a);
            inFlight[a] = new AtomicInteger();
        }
    }

    /** Starts the flood against the gateway on {@code port}; {@link #stop()} ends it. */
    static HostileFlood start(
            int port,
            int accounts,
            long firstAccount,
            LongFunction<String> bearerOf,
            double perSecond,
            int burst,
            int getConnections) {
        HostileFlood f = new HostileFlood(port, accounts, firstAccount, bearerOf, burst, getConnections);
        long period = Math.max(1, Math.round(1000 / perSecond));
        for (int a = 0; a < accounts; a++) {
            int account = a;
            long offset = 1 + period * a / Math.max(1, accounts); // the accounts spread over the period
            f.timers.add(f.vertx.setTimer(offset, t -> {
                f.post(account);
                if (f.running) f.timers.add(f.vertx.setPeriodic(period, p -> f.post(account)));
            }));
        }
        for (int c = 0; c < getConnections; c++) {
            f.getsOut.incrementAndGet();
            f.vertx.runOnContext(v -> f.get());
        }
        return f;
    }

    private void post(int account) {
        if (!running) return;
        if (inFlight[account].get() >= maxInFlight) {
            heldBack.increment(); // the gateway has stopped answering: no pile of requests without end
            return;
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long goods = MADE_UP_GOODS + r.nextLong(1_000_000_000_000L);
        String body = PurchaseHttp.body(goods, 0, 1, "hx-" + Long.toString(r.nextLong() >>> 1, 36));
        inFlight[account].incrementAndGet();
        postsSent.increment();
        PurchaseHttp.send(posts, port, HttpMethod.POST, PurchaseHttp.PATH, bearers[account], body, 0)
                .onComplete(ar -> {
                    inFlight[account].decrementAndGet();
                    count(postAnswers, ar.succeeded() ? ar.result().status() : 0);
                });
    }

    private void get() {
        if (!running) {
            getsOut.decrementAndGet();
            return;
        }
        String id = "hg-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
        getsSent.increment();
        PurchaseHttp.send(gets, port, HttpMethod.GET, PurchaseHttp.PATH + "/" + id, null, null, 0)
                .onComplete(ar -> {
                    count(getAnswers, ar.succeeded() ? ar.result().status() : 0);
                    if (ar.succeeded()) get();
                    else vertx.setTimer(10, t -> get()); // a refused connection: not a hot loop
                });
    }

    private static void count(Map<Integer, LongAdder> answers, int status) {
        answers.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    /** Seconds since the flood started. */
    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Requests sent so far (both kinds). */
    long sent() {
        return postsSent.sum() + getsSent.sum();
    }

    /** Stops sending, lets what is in flight be answered (10 s at most) and says what was sent and answered. */
    synchronized Counts stop() throws InterruptedException {
        if (stopped != null) return stopped;
        running = false;
        double seconds = seconds();
        for (long t : List.copyOf(timers)) vertx.cancelTimer(t);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && (getsOut.get() > 0 || posting() > 0)) Thread.sleep(20);
        stopped = new Counts(
                postsSent.sum(), getsSent.sum(), heldBack.sum(), sums(postAnswers), sums(getAnswers), seconds);
        return stopped;
    }

    private int posting() {
        int n = 0;
        for (AtomicInteger a : inFlight) n += a.get();
        return n;
    }

    private static Map<Integer, Long> sums(Map<Integer, LongAdder> m) {
        Map<Integer, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
