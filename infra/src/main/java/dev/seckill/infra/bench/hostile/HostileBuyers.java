package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.buyers.BuyerClient;
import dev.seckill.infra.harness.buyers.FinalAnswer;
import dev.seckill.infra.harness.buyers.RetryPolicy;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * The buyers of one sale of {@code bench hostile}, all at once: each its own account (token) and one purchase under a
 * requestId of its own choosing, followed to its final answer by the {@link BuyerClient} as the gateway's contract
 * asks ({@link RetryPolicy#patient}: {@code Prefer: wait=5}, a 202 followed with the owner's token, a 429 or 503 sent
 * again after its {@code Retry-After}, no reply after 100 ms, a minute in all). Its time to answer runs from its first
 * send to the final outcome in hand.
 */
final class HostileBuyers {
    static final int WAIT_SECONDS = 5;
    static final String NO_ANSWER = FinalAnswer.NO_ANSWER;

    private final BuyerClient buyers;
    private final HostileSale sale;
    private final AtomicInteger done = new AtomicInteger();
    private final Map<String, LongAdder> replies = new ConcurrentHashMap<>();
    private final CountDownLatch finished;
    private final ProgressBar bar;

    private HostileBuyers(Vertx vertx, int port, HostileSale sale, ProgressBar bar) {
        this.buyers = new BuyerClient(
                vertx,
                PurchaseHttp.client(vertx, sale.buyers(), 5_000),
                port,
                RetryPolicy.patient(WAIT_SECONDS),
                (method, status) -> count(method.name(), status));
        this.sale = sale;
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
        buyers.buy(sale.goods(), 0, sale.quantity(), sale.requestIds()[i], sale.bearers()[i])
                .onComplete(ar -> answered(i, ar.result()));
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

    private void answered(int i, FinalAnswer a) {
        if (sale.outcomes()[i] != null) return;
        // accepted: followed after a 202, or decided under its own id (the door's own SOLD_OUT names none: not sent)
        sale.accepted()[i] = a.followed()
                || a.decided() && sale.requestIds()[i].equals(a.body().getString("requestId"));
        sale.polled()[i] = a.followed();
        sale.notFoundWhilePolling()[i] = a.notFoundWhileFollowing();
        sale.micros()[i] = a.micros();
        sale.outcomes()[i] = a.word();
        bar.update(done.incrementAndGet());
        finished.countDown();
    }
}
