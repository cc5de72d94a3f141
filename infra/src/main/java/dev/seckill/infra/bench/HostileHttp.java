package dev.seckill.infra.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The calls {@code bench hostile} makes to a gateway, as any client makes them (Vert.x's HTTP client, keep-alive): a
 * request with an optional bearer token, JSON body and {@code Prefer: wait=N}, answered with its status, its JSON body
 * and its {@code Retry-After}. Nothing here knows the gateway's insides: the benchmark is a black box over HTTP.
 */
final class HostileHttp {
    /** An answer: the HTTP status, the JSON body (empty when none or not JSON), Retry-After in seconds (0: none). */
    record Reply(int status, JsonObject body, long retryAfterSeconds) {
        String outcome() {
            return body.getString("status");
        }

        /** How long to wait before asking again: Retry-After (or the body's retryAfterSeconds), else {@code ms}. */
        long pauseMillis(long ms) {
            long s = retryAfterSeconds > 0 ? retryAfterSeconds : body.getLong("retryAfterSeconds", 0L);
            return s > 0 ? s * 1000 : ms;
        }
    }

    /** A request waits this long for its answer beyond its {@code Prefer: wait}; then it failed (no answer). */
    private static final long IDLE_MS = 20_000;

    private HostileHttp() {}

    /** A Vert.x of {@code loops} event loops (the benchmark's clients run apart from the gateway's own). */
    static Vertx vertx(int loops) {
        return Vertx.vertx(new VertxOptions().setEventLoopPoolSize(Math.max(1, loops)));
    }

    /** A keep-alive client of at most {@code connections} connections. */
    static HttpClient client(Vertx vertx, int connections) {
        return vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setConnectTimeout(5_000),
                new PoolOptions().setHttp1MaxSize(Math.max(1, connections)).setMaxWaitQueueSize(-1));
    }

    /** One call; {@code bearer}, {@code body} may be null, {@code wait} 0 for no {@code Prefer: wait}. */
    static Future<Reply> send(
            HttpClient client, int port, HttpMethod method, String path, String bearer, String body, int wait) {
        RequestOptions o = new RequestOptions()
                .setMethod(method)
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(path)
                .setIdleTimeout(IDLE_MS + wait * 1000L);
        if (bearer != null) o.putHeader("authorization", bearer);
        if (wait > 0) o.putHeader("prefer", "wait=" + wait);
        if (body != null) o.putHeader("content-type", "application/json");
        return client.request(o)
                .compose(req -> body == null ? req.send() : req.send(body))
                .compose(resp -> resp.body().map(b -> reply(resp, b)));
    }

    /** A purchase's body: goods, one line of quantity, the client's requestId (the token names the buyer). */
    static String purchase(long goodsId, int quantity, String requestId) {
        return "{\"goodsId\":" + goodsId + ",\"quantity\":" + quantity + ",\"requestId\":\"" + requestId + "\"}";
    }

    private static Reply reply(HttpClientResponse resp, Buffer b) {
        long after = 0;
        String h = resp.getHeader("Retry-After");
        if (h != null) {
            try {
                after = Long.parseLong(h.trim());
            } catch (NumberFormatException dateForm) {
                after = 1;
            }
        }
        JsonObject json;
        try {
            json = b.length() == 0 ? new JsonObject() : b.toJsonObject();
        } catch (RuntimeException notJson) {
            json = new JsonObject();
        }
        return new Reply(resp.statusCode(), json, after);
    }

    /**
     * Runs {@code task(0..n-1)} with at most {@code concurrency} in flight (each started once the one before it on its
     * lane completed, failed or not); the future completes when all have.
     */
    static Future<Void> each(Vertx vertx, int n, int concurrency, IntFunction<Future<?>> task) {
        Promise<Void> all = Promise.promise();
        if (n == 0) return Future.succeededFuture();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Runnable[] lane = new Runnable[1];
        lane[0] = () -> {
            int i = next.getAndIncrement();
            if (i >= n) return;
            Future<?> f;
            try {
                f = task.apply(i);
            } catch (RuntimeException e) {
                f = Future.failedFuture(e);
            }
            f.onComplete(ar -> {
                if (done.incrementAndGet() == n) all.complete();
                else lane[0].run();
            });
        };
        for (int c = 0; c < Math.min(n, concurrency); c++) vertx.runOnContext(v -> lane[0].run());
        return all.future();
    }
}
