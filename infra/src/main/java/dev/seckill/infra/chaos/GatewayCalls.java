package dev.seckill.infra.chaos;

import dev.seckill.infra.harness.PurchaseHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario's own buyer at the gateway, as a client calls it: {@code POST /api/purchases} with its own requestId and
 * {@code Prefer: wait=10}; a 202 (or a 200 PENDING) is long-polled; no answer or a 5xx is sent again (a minute at
 * most). The answer is the HTTP status of the last reply with its {@code status} and {@code field}.
 */
final class GatewayCalls {
    /** The final reply: 200 with the purchase's status, or a refusal (409/422 naming a field), or HTTP_NO_ANSWER. */
    record Answer(int code, String status, String field) {
        boolean decided() {
            return code == 200 && status != null && !status.equals("PENDING");
        }

        boolean success() {
            return code == 200 && "SUCCESS".equals(status);
        }

        @Override
        public String toString() {
            return code + (status == null ? "" : " " + status) + (field == null ? "" : " field=" + field);
        }
    }

    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern FIELD = Pattern.compile("\"field\"\\s*:\\s*\"([A-Za-z]+)\"");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private GatewayCalls() {}

    /** The purchase's final answer (blocks; at most about a minute). */
    static Answer purchase(int port, long goods, long user, int quantity, String requestId) {
        return purchaseAsync(port, goods, user, quantity, requestId).join();
    }

    static CompletableFuture<Answer> purchaseAsync(int port, long goods, long user, int quantity, String requestId) {
        String body = PurchaseHttp.body(goods, user, quantity, requestId);
        String url = "http://127.0.0.1:" + port + PurchaseHttp.PATH;
        HttpRequest post = HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json")
                .header("prefer", "wait=10")
                .timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpRequest get = HttpRequest.newBuilder(URI.create(url + "/" + requestId))
                .header("prefer", "wait=10")
                .timeout(Duration.ofSeconds(15))
                .build();
        return until(post, get, System.nanoTime() + Duration.ofMinutes(1).toNanos());
    }

    private static CompletableFuture<Answer> until(HttpRequest first, HttpRequest poll, long deadline) {
        if (System.nanoTime() > deadline)
            return CompletableFuture.completedFuture(new Answer(0, "HTTP_NO_ANSWER", null));
        return HTTP.sendAsync(first, HttpResponse.BodyHandlers.ofString())
                .handle((resp, err) -> {
                    Answer a = err == null ? answer(resp) : null;
                    if (a != null && (a.decided() || (a.code() >= 400 && a.code() < 500)))
                        return CompletableFuture.completedFuture(a);
                    if (a != null && (a.code() == 202 || a.code() == 200)) return until(poll, poll, deadline);
                    // no answer or a 5xx: the same request again after a pause (the same requestId: a retry)
                    return CompletableFuture.supplyAsync(
                                    () -> first, CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS))
                            .thenCompose(again -> until(again, poll, deadline));
                })
                .thenCompose(f -> f);
    }

    private static Answer answer(HttpResponse<String> resp) {
        return new Answer(resp.statusCode(), group(STATUS, resp.body()), group(FIELD, resp.body()));
    }

    private static String group(Pattern p, String body) {
        Matcher m = p.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : null;
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
