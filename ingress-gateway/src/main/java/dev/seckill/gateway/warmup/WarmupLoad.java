package dev.seckill.gateway.warmup;

import dev.seckill.gateway.auth.Jwt;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The warm-up door's traffic: {@code n} requests over {@code connections} keep-alive connections, each sending its
 * next when the last is answered, in the mix a sale brings — purchases with a gateway-made requestId, a quarter with
 * a client requestId (the claim in Redis), every 50th malformed (400), every 25th its buyer's GET of a claimed id. Buyers come
 * back (5,000 of them), so their tokens meet the verified-token cache as in a sale.
 */
final class WarmupLoad {
    static final int BUYERS = 5_000;
    static final int GOODS = 4;

    private final Vertx vertx;
    private final int port;
    private final Jwt jwt;
    private final String idPrefix;
    private final int connections;
    private final Map<Long, String> bearers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> claimed = new ConcurrentLinkedQueue<>();
    /** The last claimed id and its buyer, for the GETs. */
    private volatile Map.Entry<String, Long> lastClaim;

    private final Map<Integer, Integer> byStatus = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    WarmupLoad(Vertx vertx, int port, Jwt jwt, String idPrefix, int connections) {
        this.vertx = vertx;
        this.port = port;
        this.jwt = jwt;
        this.idPrefix = idPrefix;
        this.connections = connections;
    }

    /** Sends the requests; returns when all are answered or {@code limit} has passed. */
    void run(int n, Duration limit) throws InterruptedException {
        HttpClient client = vertx.createHttpClient(
                new HttpClientOptions()
                        .setDefaultHost("127.0.0.1")
                        .setDefaultPort(port)
                        .setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(connections));
        CountDownLatch lanes = new CountDownLatch(connections);
        try {
            for (int c = 0; c < connections; c++) lane(client, n, lanes);
            lanes.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            client.close();
        }
    }

    /** One connection's worth: the next request when the last was answered, until {@code n} were sent. */
    private void lane(HttpClient client, int n, CountDownLatch lanes) {
        int i = next.getAndIncrement();
        if (i >= n) {
            lanes.countDown();
            return;
        }
        send(client, i).onComplete(r -> {
            byStatus.merge(r.succeeded() ? r.result() : -1, 1, Integer::sum);
            lane(client, n, lanes);
        });
    }

    private Future<Integer> send(HttpClient client, int i) {
        Map.Entry<String, Long> last = lastClaim;
        if (i % 25 == 24 && last != null) {
            return exchange(
                    client,
                    new RequestOptions()
                            .setMethod(HttpMethod.GET)
                            .setURI("/api/purchases/" + last.getKey())
                            .putHeader("Authorization", bearer(last.getValue())),
                    null);
        }
        long buyer = 1 + i % BUYERS;
        String bearer = bearer(buyer);
        String body;
        if (i % 50 == 48) {
            body = "{\"goodsId\":\"x\",\"userId\":" + buyer + "}";
        } else if (i % 4 == 3) {
            String id = idPrefix + i;
            claimed.add(id);
            lastClaim = Map.entry(id, buyer);
            body = "{\"goodsId\":" + (1 + i % GOODS) + ",\"userId\":" + buyer + ",\"quantity\":1,\"requestId\":\"" + id
                    + "\"}";
        } else {
            body = "{\"goodsId\":" + (1 + i % GOODS) + ",\"userId\":" + buyer + ",\"quantity\":1}";
        }
        return exchange(
                client,
                new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setURI("/api/purchases")
                        .putHeader("Content-Type", "application/json")
                        .putHeader("Authorization", bearer),
                Buffer.buffer(body));
    }

    private String bearer(long buyer) {
        return bearers.computeIfAbsent(
                buyer, b -> "Bearer " + jwt.mint(b, Instant.now().plusSeconds(3600)));
    }

    private static Future<Integer> exchange(HttpClient client, RequestOptions options, Buffer body) {
        // the body asked for in the task that sends: a body whose chunks came before anyone asked is dropped by
        // Vert.x, and a lane started from this plain thread would wait out the warm-up's limit
        return client.request(options.setTimeout(10_000))
                .compose(req -> (body == null ? req.send() : req.send(body))
                        .compose(resp -> resp.body().map(b -> resp.statusCode())));
    }

    /** The client requestIds sent (their status claims are the warm-up's only Redis writes). */
    List<String> claimedIds() {
        return List.copyOf(claimed);
    }

    Map<Integer, Integer> byStatus() {
        return Map.copyOf(byStatus);
    }
}
