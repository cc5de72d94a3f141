package dev.seckill.system;

import dev.seckill.infra.harness.Pipeline;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/** A pipeline's gateway as buyers call it, answering with the HTTP status only: purchases and status lookups. */
final class GatewayHttp {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private GatewayHttp() {}

    /** {@code POST /api/purchases} of one unit by {@code user}, under a requestId of the buyer's own. */
    static CompletableFuture<Integer> purchase(Pipeline p, long goods, long user, String requestId) {
        String body = "{\"goodsId\":" + goods + ",\"userId\":" + user + ",\"requestId\":\"" + requestId + "\"}";
        return send(HttpRequest.newBuilder(uri(p, "/api/purchases"))
                .header("Content-Type", "application/json")
                .header("Authorization", p.bearer(user))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** {@code POST /api/purchases} of one unit by {@code user}, naming no requestId: the gateway issues one. */
    static CompletableFuture<Integer> purchase(Pipeline p, long goods, long user) {
        String body = "{\"goodsId\":" + goods + ",\"userId\":" + user + "}";
        return send(HttpRequest.newBuilder(uri(p, "/api/purchases"))
                .header("Content-Type", "application/json")
                .header("Authorization", p.bearer(user))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** {@code GET /api/purchases/{requestId}}, anonymous. */
    static CompletableFuture<Integer> status(Pipeline p, String requestId) {
        return send(
                HttpRequest.newBuilder(uri(p, "/api/purchases/" + requestId)).GET());
    }

    /** {@code n} calls made at once, their statuses once all answered. */
    static List<Integer> together(int n, IntFunction<CompletableFuture<Integer>> call) {
        List<CompletableFuture<Integer>> calls =
                IntStream.range(0, n).mapToObj(call).toList();
        return calls.stream().map(CompletableFuture::join).toList();
    }

    private static URI uri(Pipeline p, String path) {
        return URI.create("http://127.0.0.1:" + p.gatewayPort() + path);
    }

    private static CompletableFuture<Integer> send(HttpRequest.Builder request) {
        return HTTP.sendAsync(request.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.discarding())
                .thenApply(HttpResponse::statusCode);
    }
}
