package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.PurchaseHttp.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * The buyers of one sale of {@code bench hostile}, all at once: each its own account (token) and one purchase under a
 * requestId of its own choosing, sent with {@code Prefer: wait=5} and followed until it has a final answer: a 202 (or a
 * 200 PENDING) is polled with {@code GET /api/purchases/{id}} (the owner's token, also with the wait); a 429 or 503 is
 * sent again after its {@code Retry-After}, no answer after 100 ms; after a minute the buyer gives up (no answer).
 * Its time to answer runs from its first send to the final outcome in hand.
 */
final class HostileBuyers {
    static final int WAIT_SECONDS = 5;
    static final String NO_ANSWER = "NO_ANSWER";
    private static final Set<String> FINAL = Set.of("SUCCESS", "SOLD_OUT", "DUPLICATE", "REJECTED");
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long RETRY_MS = 100;

    private final Vertx vertx;
    private final HttpClient client;
    private final int port;
    private final HostileSale sale;
    private final long[] start;
    private final AtomicInteger done = new AtomicInteger();
    private final Map<String, LongAdder> replies = new ConcurrentHashMap<>();
    private final CountDownLatch finished;
    private final ProgressBar bar;

    private HostileBuyers(Vertx vertx, int port, HostileSale sale, ProgressBar bar) {
        this.vertx = vertx;
        this.client = PurchaseHttp.client(vertx, sale.buyers(), 5_000);
        this.port = port;
        this.sale = sale;
        this.start = new long[sale.buyers()];
        this.finished = new CountDownLatch(sale.buyers());
        this.bar = bar;
    }

    /**
     * Buyers {@code firstUser .. firstUser + buyers - 1}, each buying {@code quantity} of {@code goods} under
     * {@code idPrefix + i}; returns when every one has its final answer (or gave up). The clients run on a Vert.x of
     * their own, apart from any other load of the run.
     */
    static HostileSale buy(
            int port,
            long goods,
            int quantity,
            int buyers,
            long firstUser,
            String idPrefix,
            LongFunction<String> bearerOf,
            ProgressBar bar)
            throws InterruptedException {
        long[] users = new long[buyers];
        String[] bearers = new String[buyers];
        String[] ids = new String[buyers];
        for (int i = 0; i < buyers; i++) {
            users[i] = firstUser + i;
            bearers[i] = bearerOf.apply(users[i]);
            ids[i] = idPrefix + i;
        }
        HostileSale sale = new HostileSale(
                goods,
                quantity,
                users,
                bearers,
                ids,
                new long[buyers],
                new String[buyers],
                new boolean[buyers],
                new boolean[buyers],
                new boolean[buyers],
                Map.of(),
                0);
        Vertx vertx = PurchaseHttp.vertx(Runtime.getRuntime().availableProcessors());
        try {
            HostileBuyers b = new HostileBuyers(vertx, port, sale, bar);
            long t0 = System.nanoTime();
            for (int i = 0; i < buyers; i++) {
                int buyer = i;
                vertx.runOnContext(v -> b.first(buyer));
            }
            if (!b.finished.await(5, TimeUnit.MINUTES))
                throw new IllegalStateException("the buyers did not all have an answer in 5 minutes");
            bar.finish(b.done.get());
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new HostileSale(
                    goods,
                    quantity,
                    users,
                    bearers,
                    ids,
                    sale.micros(),
                    sale.outcomes(),
                    sale.accepted(),
                    sale.polled(),
                    sale.notFoundWhilePolling(),
                    b.replies(),
                    seconds);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private void first(int i) {
        start[i] = System.nanoTime();
        post(i);
    }

    private void post(int i) {
        if (givenUp(i)) return;
        String body = PurchaseHttp.body(sale.goods(), 0, sale.quantity(), sale.requestIds()[i]);
        PurchaseHttp.send(client, port, HttpMethod.POST, PurchaseHttp.PATH, sale.bearers()[i], body, WAIT_SECONDS)
                .onComplete(ar -> {
                    if (ar.failed()) {
                        count("POST", 0);
                        later(RETRY_MS, () -> post(i));
                        return;
                    }
                    Reply r = ar.result();
                    count("POST", r.status());
                    String outcome = r.outcome();
                    if (r.status() == 200 && FINAL.contains(outcome)) {
                        // the door's own SOLD_OUT (nothing was sent) names no requestId: not an accepted purchase
                        if (sale.requestIds()[i].equals(r.body().getString("requestId"))) sale.accepted()[i] = true;
                        answered(i, outcome);
                    } else if (r.status() == 202 || r.status() == 200) {
                        sale.accepted()[i] = true;
                        sale.polled()[i] = true;
                        poll(i);
                    } else if (r.status() == 429 || r.status() >= 500) {
                        later(r.pauseMillis(RETRY_MS), () -> post(i));
                    } else {
                        answered(i, "HTTP_" + r.status());
                    }
                });
    }

    /** The owner asks for the outcome of an accepted purchase until it is decided. */
    private void poll(int i) {
        if (givenUp(i)) return;
        String path = PurchaseHttp.PATH + "/" + sale.requestIds()[i];
        PurchaseHttp.send(client, port, HttpMethod.GET, path, sale.bearers()[i], null, WAIT_SECONDS)
                .onComplete(ar -> {
                    if (ar.failed()) {
                        count("GET", 0);
                        later(RETRY_MS, () -> poll(i));
                        return;
                    }
                    Reply r = ar.result();
                    count("GET", r.status());
                    if (r.status() == 200 && FINAL.contains(r.outcome())) {
                        answered(i, r.outcome());
                    } else if (r.status() == 404) {
                        // an accepted purchase its owner is told does not exist: counted, then asked again
                        sale.notFoundWhilePolling()[i] = true;
                        later(RETRY_MS, () -> poll(i));
                    } else if (r.status() == 429 || r.status() >= 500) {
                        later(r.pauseMillis(RETRY_MS), () -> poll(i));
                    } else {
                        later(RETRY_MS, () -> poll(i)); // 202 or 200 PENDING: not decided yet
                    }
                });
    }

    private void count(String method, int status) {
        replies.computeIfAbsent(method + " " + status, k -> new LongAdder()).increment();
    }

    /** The buyers' requests by method and answer status, e.g. {@code POST 200}. */
    private Map<String, Long> replies() {
        Map<String, Long> out = new TreeMap<>();
        replies.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    private boolean givenUp(int i) {
        if (System.nanoTime() - start[i] <= GIVE_UP_NANOS) return false;
        answered(i, NO_ANSWER);
        return true;
    }

    private void later(long ms, Runnable r) {
        vertx.setTimer(Math.max(1, ms), t -> r.run());
    }

    private void answered(int i, String outcome) {
        if (sale.outcomes()[i] != null) return;
        sale.micros()[i] = (System.nanoTime() - start[i]) / 1_000;
        sale.outcomes()[i] = outcome;
        bar.update(done.incrementAndGet());
        finished.countDown();
    }
}
