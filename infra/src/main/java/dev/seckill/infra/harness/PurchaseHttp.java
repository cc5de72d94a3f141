package dev.seckill.infra.harness;

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
 * The one way every load generator and check of infra talks to a gateway, as any client does (Vert.x's HTTP client,
 * keep-alive): a purchase's body, a call with an optional bearer token, JSON body and {@code Prefer: wait=N}, and its
 * answer ({@link Reply}: status, body, {@code Retry-After}); the raw generator ({@link RawConnection}) writes the same
 * body and headers as bytes. Nothing here knows the gateway's insides: a black box over HTTP.
 */
public final class PurchaseHttp {
    /** The purchase route; a purchase's status is at {@code PATH + "/" + requestId}. */
    public static final String PATH = "/api/purchases";

    /** A call that asks no {@code Prefer: wait} waits this long for its answer (more with a wait); then it failed. */
    public static final long IDLE_MS = 20_000;

    /**
     * An answer: the HTTP status, the body as it came (read as JSON on demand: a load that only counts statuses does
     * not parse it), Retry-After in seconds (0: none).
     */
    public record Reply(int status, Buffer raw, long retryAfterSeconds) {
        /** The body as JSON; empty when there is none or it is not JSON. */
        public JsonObject body() {
            try {
                return raw.length() == 0 ? new JsonObject() : raw.toJsonObject();
            } catch (RuntimeException notJson) {
                return new JsonObject();
            }
        }

        /** The body's {@code status} when it is a purchase's (an outcome, PENDING, WAITING_DRAW), else null. */
        public String outcome() {
            return body().getValue("status") instanceof String s ? s : null; // a problem's status is a number
        }

        /** How long to wait before asking again: Retry-After (or the body's retryAfterSeconds), else {@code ms}. */
        public long pauseMillis(long ms) {
            long s = retryAfterSeconds > 0 ? retryAfterSeconds : body().getLong("retryAfterSeconds", 0L);
            return s > 0 ? s * 1000 : ms;
        }
    }

    private PurchaseHttp() {}

    /**
     * A purchase's JSON body: {@code userId} left out when {@code userId <= 0} (the token names the buyer), the
     * client's {@code requestId} when not null (else the gateway assigns one).
     */
    public static String body(long goodsId, long userId, int quantity, String requestId) {
        return "{\"goodsId\":" + goodsId + (userId > 0 ? ",\"userId\":" + userId : "") + ",\"quantity\":" + quantity
                + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}";
    }

    /** The requestId of a 202 body ({@code {"requestId":"…","status":"PENDING"}}), read without a JSON parser. */
    public static String requestId(String body) {
        int at = body.indexOf("\"requestId\"");
        int open = body.indexOf('"', body.indexOf(':', at) + 1);
        return body.substring(open + 1, body.indexOf('"', open + 1));
    }

    /** A Vert.x of {@code loops} event loops (a load's clients run apart from the gateway's own). */
    public static Vertx vertx(int loops) {
        return Vertx.vertx(new VertxOptions().setEventLoopPoolSize(Math.max(1, loops)));
    }

    /** A keep-alive client of at most {@code connections} connections, connecting within {@code connectMs}. */
    public static HttpClient client(Vertx vertx, int connections, int connectMs) {
        return vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setConnectTimeout(connectMs),
                new PoolOptions().setHttp1MaxSize(Math.max(1, connections)).setMaxWaitQueueSize(-1));
    }

    /** One call that gives up after {@link #IDLE_MS} beyond its wait; {@code bearer}, {@code body} may be null. */
    public static Future<Reply> send(
            HttpClient client, int port, HttpMethod method, String path, String bearer, String body, int wait) {
        return send(
                client,
                port,
                method,
                path,
                bearer,
                body == null ? null : Buffer.buffer(body),
                wait,
                IDLE_MS + wait * 1000L);
    }

    /** One call; {@code wait} 0 for no {@code Prefer: wait}; {@code idleMs} 0 to wait for the answer however long. */
    public static Future<Reply> send(
            HttpClient client,
            int port,
            HttpMethod method,
            String path,
            String bearer,
            Buffer body,
            int wait,
            long idleMs) {
        RequestOptions o = new RequestOptions()
                .setMethod(method)
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(path);
        if (idleMs > 0) o.setIdleTimeout(idleMs);
        if (bearer != null) o.putHeader("authorization", bearer);
        if (wait > 0) o.putHeader("prefer", "wait=" + wait);
        if (body != null) o.putHeader("content-type", "application/json");
        // The body is asked for in the same event-loop task that sends the request: Vert.x drops a body whose
        // chunks arrive before anyone asked for it, and the call would never complete. A chained compose, attached
        // by a caller outside Vert.x after the reply had come, lost one call in a few thousand on a busy machine.
        return client.request(o)
                .compose(req -> (body == null ? req.send() : req.send(body))
                        .compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), b, retryAfter(resp)))));
    }

    private static long retryAfter(HttpClientResponse resp) {
        String h = resp.getHeader("Retry-After");
        if (h == null) return 0;
        try {
            return Long.parseLong(h.trim());
        } catch (NumberFormatException dateForm) {
            return 1;
        }
    }

    /**
     * A closed loop of tasks: {@code task(0..n-1)} with at most {@code concurrency} in flight, each lane starting its
     * next once its last completed, failed or not; the future completes when all have.
     */
    public static Future<Void> each(Vertx vertx, int n, int concurrency, IntFunction<Future<?>> task) {
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
