package dev.seckill.infra.chaos;

import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.buyers.BuyerClient;
import dev.seckill.infra.harness.buyers.FinalAnswer;
import dev.seckill.infra.harness.buyers.RetryPolicy;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * A scenario's own buyers at the gateway, as a client calls it: through the one {@link BuyerClient}, with their own
 * requestIds and the contract's patience ({@link RetryPolicy#patient}: {@code Prefer: wait=10}; a 202 or a 200 PENDING
 * followed; no reply, a 429 or a 5xx sent again; a minute at most), on a Vert.x of their own that closes with the run.
 */
final class GatewayCalls implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Vertx vertx = PurchaseHttp.vertx(1);
    private final BuyerClient buyers;

    /** The scenario's buyers of the gateway on {@code port}. */
    GatewayCalls(int port) {
        this.buyers = new BuyerClient(
                vertx, PurchaseHttp.client(vertx, 64, 2_000), port, RetryPolicy.patient(10), (method, status) -> {});
    }

    /** The purchase's final answer (blocks; at most about a minute). */
    FinalAnswer purchase(long goods, long user, int quantity, String requestId) {
        return purchaseAsync(goods, user, quantity, requestId).join();
    }

    CompletableFuture<FinalAnswer> purchaseAsync(long goods, long user, int quantity, String requestId) {
        return buyers.buy(goods, user, quantity, requestId, null)
                .toCompletionStage()
                .toCompletableFuture();
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /**
     * A counter of the gateway's {@code /metrics} on its admin port ({@code metricsPort}; the public port answers it
     * 404), summed over its labels; 0 when absent or unreadable.
     */
    static double metric(int metricsPort, String name) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body()
                    .lines()
                    .filter(l -> l.matches(Pattern.quote(name) + "(_total)?[ {].*"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
        } catch (Exception e) {
            return 0;
        }
    }
}
