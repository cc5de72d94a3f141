package dev.seckill.infra.drill;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The write-up's experiment against the gateway: {@code requests} purchases from {@code concurrency} concurrent
 * HTTP clients over a population of {@code users} buyers drawn at random (so many buy more than once).
 */
public final class LoadGenerator {
    public record Result(long requests, Set<String> acceptedIds, Map<Integer, Long> byStatus, long[] latenciesMicros,
                         long elapsedNanos, long errors) {
        public double acceptedPerSecond() { return acceptedIds.size() / (elapsedNanos / 1e9); }
        public double requestsPerSecond() { return requests / (elapsedNanos / 1e9); }

        public double percentileMillis(double p) {
            if (latenciesMicros.length == 0) return 0;
            long[] sorted = latenciesMicros.clone();
            java.util.Arrays.sort(sorted);
            int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
            return sorted[Math.max(i, 0)] / 1000.0;
        }
    }

    private LoadGenerator() {}

    /** @param bearerOf the Authorization header for a buyer (the demo mints tokens), or null when auth is off */
    public static Result run(int port, long goodsId, int requests, int concurrency, int users, long seed,
                             java.util.function.LongFunction<String> bearerOf, IntConsumer progress) {
        int loops = Math.max(1, Math.min(concurrency, Runtime.getRuntime().availableProcessors()));
        Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setEventLoopPoolSize(loops));
        Random random = new Random(seed);
        long[] userOf = new long[requests];
        for (int i = 0; i < requests; i++) userOf[i] = 1 + random.nextInt(users);
        Map<Long, String> bearers = new java.util.HashMap<>();
        if (bearerOf != null) for (long u : userOf) bearers.computeIfAbsent(u, bearerOf::apply);
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
        long[] latencies = new long[requests];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicLong errors = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(concurrency);
        long start = System.nanoTime();
        // one verticle per event loop, each with its own client and its share of the concurrent clients
        for (int l = 0; l < loops; l++) {
            int share = concurrency / loops + (l < concurrency % loops ? 1 : 0);
            vertx.deployVerticle(new AbstractVerticle() {
                @Override public void start() {
                    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
                            .setDefaultPort(port).setKeepAlive(true).setTcpNoDelay(true).setConnectTimeout(10_000),
                            new PoolOptions().setHttp1MaxSize(share));
                    for (int c = 0; c < share; c++) {
                        loop(client, goodsId, userOf, bearers, next, done, latencies, accepted, byStatus, errors, finished, progress);
                    }
                }
            });
        }
        try {
            if (!finished.await(10, TimeUnit.MINUTES)) throw new IllegalStateException("load did not finish in 10 minutes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long elapsed = System.nanoTime() - start;
        vertx.close();
        return new Result(requests, accepted, byStatus, latencies, elapsed, errors.get());
    }

    private static void loop(WebClient client, long goodsId, long[] userOf, Map<Long, String> bearers, AtomicInteger next, AtomicInteger done,
                             long[] latencies, Set<String> accepted, Map<Integer, Long> byStatus, AtomicLong errors,
                             CountDownLatch finished, IntConsumer progress) {
        int i = next.getAndIncrement();
        if (i >= userOf.length) {
            finished.countDown();
            return;
        }
        long t0 = System.nanoTime();
        JsonObject body = new JsonObject().put("goodsId", goodsId).put("userId", userOf[i]).put("quantity", 1);
        var request = client.post("/api/purchases").putHeader("Content-Type", "application/json");
        String bearer = bearers.get(userOf[i]);
        if (bearer != null) request.putHeader("Authorization", bearer);
        Future<?> f = request.sendJsonObject(body)
                .onSuccess(resp -> {
                    latencies[i] = (System.nanoTime() - t0) / 1000;
                    byStatus.merge(resp.statusCode(), 1L, Long::sum);
                    if (resp.statusCode() == 202) accepted.add(resp.bodyAsJsonObject().getString("requestId"));
                })
                .onFailure(e -> {
                    latencies[i] = (System.nanoTime() - t0) / 1000;
                    errors.incrementAndGet();
                });
        f.onComplete(r -> {
            progress.accept(done.incrementAndGet());
            loop(client, goodsId, userOf, bearers, next, done, latencies, accepted, byStatus, errors, finished, progress);
        });
    }
}
