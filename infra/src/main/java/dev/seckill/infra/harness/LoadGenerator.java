package dev.seckill.infra.harness;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.LongFunction;

/**
 * The write-up's experiment against the gateway: {@code requests} purchases from {@code concurrency} concurrent
 * HTTP clients over a population of {@code users} buyers drawn at random (so many buy more than once). Requests are
 * prepared before the clock starts (bodies, tokens), and sent with Vert.x's core HTTP client.
 */
public final class LoadGenerator {
    /** @param acceptedIds the requestIds of the 202s (empty when the caller did not ask to keep them) */
    public record Result(
            long requests,
            long accepted,
            Set<String> acceptedIds,
            Map<Integer, Long> byStatus,
            long[] latenciesMicros,
            long elapsedNanos,
            long errors) {
        public double acceptedPerSecond() {
            return accepted / (elapsedNanos / 1e9);
        }

        public double requestsPerSecond() {
            return requests / (elapsedNanos / 1e9);
        }

        public double percentileMillis(double p) {
            return percentileMillis(p, 0);
        }

        /** The percentile over requests {@code from} onwards (an open loop's first seconds are its warm-up). */
        public double percentileMillis(double p, int from) {
            return Latencies.percentileMillis(latenciesMicros, p, from);
        }
    }

    private LoadGenerator() {}

    /** Closed loop: each of the {@code concurrency} clients sends its next request when the last one is answered. */
    public static Result run(
            int port,
            long goodsId,
            int requests,
            int concurrency,
            int users,
            long seed,
            LongFunction<String> bearerOf,
            IntConsumer progress) {
        return run(port, goodsId, requests, concurrency, users, seed, bearerOf, progress, 0);
    }

    /**
     * @param bearerOf      the Authorization header for a buyer (the demo mints tokens), or null when auth is off
     * @param ratePerSecond 0 for a closed loop; otherwise an open loop (as wrk2 does): requests are due at this rate
     *                      whatever the answers, over {@code concurrency} connections, and each one's latency counts
     *                      from when it was due — time spent waiting for a free connection included, so a slow
     *                      server cannot hide its queue (no coordinated omission)
     */
    public static Result run(
            int port,
            long goodsId,
            int requests,
            int concurrency,
            int users,
            long seed,
            LongFunction<String> bearerOf,
            IntConsumer progress,
            double ratePerSecond) {
        return run(port, goodsId, requests, concurrency, 1, users, seed, bearerOf, progress, ratePerSecond, true);
    }

    /**
     * @param keepIds whether to keep the accepted requestIds (drills check each one's outcome); a benchmark only
     *                counts them, so that a growing set of ids does not add to the collector's work in the same JVM
     */
    public static Result run(
            int port,
            long goodsId,
            int requests,
            int concurrency,
            long firstUser,
            int users,
            long seed,
            LongFunction<String> bearerOf,
            IntConsumer progress,
            double ratePerSecond,
            boolean keepIds) {
        int loops = Math.max(1, Math.min(concurrency, Runtime.getRuntime().availableProcessors()));
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        Random random = new Random(seed);
        Map<Long, String> bearers = new HashMap<>();
        Buffer[] bodies = new Buffer[requests];
        String[] auth = new String[requests];
        for (int i = 0; i < requests; i++) {
            long user = firstUser + random.nextInt(users);
            bodies[i] = Buffer.buffer("{\"goodsId\":" + goodsId + ",\"userId\":" + user + ",\"quantity\":1}");
            auth[i] = bearerOf == null ? null : bearers.computeIfAbsent(user, bearerOf::apply);
        }
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
        long[] latencies = new long[requests];
        AtomicInteger done = new AtomicInteger();
        AtomicLong errors = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(requests);
        // what was just prepared (bodies, tokens, arrays) is moved out of the young generation before the clock starts,
        // as JMH collects between iterations: otherwise the first collections of the run copy it, pausing everything
        System.gc();
        AtomicLong acceptedCount = new AtomicLong();
        Shared shared = new Shared(
                bodies,
                auth,
                latencies,
                keepIds ? accepted : null,
                acceptedCount,
                byStatus,
                errors,
                done,
                finished,
                progress);
        long start = System.nanoTime();
        // one verticle per event loop, each with its own client, its share of the connections and of the requests
        for (int l = 0; l < loops; l++) {
            int share = concurrency / loops + (l < concurrency % loops ? 1 : 0);
            int loop = l;
            vertx.deployVerticle(new AbstractVerticle() {
                @Override
                public void start() {
                    HttpClient client = vertx.createHttpClient(
                            new HttpClientOptions()
                                    .setDefaultHost("127.0.0.1")
                                    .setDefaultPort(port)
                                    .setKeepAlive(true)
                                    .setTcpNoDelay(true)
                                    .setConnectTimeout(10_000),
                            new PoolOptions().setHttp1MaxSize(share));
                    if (ratePerSecond <= 0) {
                        AtomicInteger next = new AtomicInteger(loop);
                        for (int c = 0; c < share; c++) closedLoop(client, shared, next, loops);
                    } else {
                        openLoop(vertx, client, shared, loop, loops, ratePerSecond / loops, start);
                    }
                }
            });
        }
        try {
            if (!finished.await(10, TimeUnit.MINUTES))
                throw new IllegalStateException("load did not finish in 10 minutes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long elapsed = System.nanoTime() - start;
        vertx.close();
        return new Result(requests, acceptedCount.get(), accepted, byStatus, latencies, elapsed, errors.get());
    }

    /** What every client shares: the prepared requests and where the answers go. */
    private record Shared(
            Buffer[] bodies,
            String[] auth,
            long[] latencies,
            Set<String> accepted,
            AtomicLong acceptedCount,
            Map<Integer, Long> byStatus,
            AtomicLong errors,
            AtomicInteger done,
            CountDownLatch finished,
            IntConsumer progress) {}

    /** Requests {@code first, first + stride, ...}: the next one leaves when the last one is answered. */
    private static void closedLoop(HttpClient client, Shared s, AtomicInteger next, int stride) {
        int i = next.getAndAdd(stride);
        if (i >= s.bodies().length) return;
        long t0 = System.nanoTime();
        send(client, s, i, t0).onComplete(r -> closedLoop(client, s, next, stride));
    }

    /** Requests {@code first, first + stride, ...}, each due at {@code start + k / rate}, sent when due. */
    private static void openLoop(
            Vertx vertx, HttpClient client, Shared s, int first, int stride, double rate, long start) {
        int[] k = {0};
        long[] timer = new long[1];
        timer[0] = vertx.setPeriodic(1, t -> {
            long now = System.nanoTime();
            while (true) {
                int i = first + k[0] * stride;
                if (i >= s.bodies().length) {
                    vertx.cancelTimer(timer[0]);
                    return;
                }
                long due = start + (long) (k[0] / rate * 1e9);
                if (due > now) return;
                k[0]++;
                send(client, s, i, due);
            }
        });
    }

    private static Future<?> send(HttpClient client, Shared s, int i, long t0) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setURI("/api/purchases")
                .putHeader("Content-Type", "application/json");
        if (s.auth()[i] != null) options.putHeader("Authorization", s.auth()[i]);
        Future<?> f = client.request(options)
                .compose(req -> req.send(s.bodies()[i]))
                .compose(resp -> resp.body().map(body -> {
                    s.latencies()[i] = (System.nanoTime() - t0) / 1000;
                    s.byStatus().merge(resp.statusCode(), 1L, Long::sum);
                    if (resp.statusCode() == 202) {
                        s.acceptedCount().incrementAndGet();
                        if (s.accepted() != null) s.accepted().add(Responses.requestId(body.toString()));
                    }
                    return body;
                }))
                .onFailure(e -> {
                    s.latencies()[i] = (System.nanoTime() - t0) / 1000;
                    s.errors().incrementAndGet();
                });
        return f.onComplete(r -> {
            s.progress().accept(s.done().incrementAndGet());
            s.finished().countDown();
        });
    }
}
