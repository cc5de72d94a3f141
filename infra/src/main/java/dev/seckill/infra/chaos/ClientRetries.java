package dev.seckill.infra.chaos;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Buyers whose client retries: each sends the same purchase (its own requestId) {@value #COPIES} times at once through
 * the gateway. Check: every copy ends in the same outcome, a SUCCESS has its order, no buyer two.
 */
final class ClientRetries {
    static final int BUYERS = 30;
    static final int COPIES = 4;
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ClientRetries() {}

    static void run(ChaosTarget t) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        Map<String, List<CompletableFuture<String>>> answers = new HashMap<>();
        Map<String, Long> users = new HashMap<>();
        for (int i = 0; i < BUYERS; i++) {
            String rid = "client-" + run + "-" + i;
            long user = 60_000_000L + i;
            users.put(rid, user);
            String body = "{\"goodsId\":" + t.goods + ",\"userId\":" + user + ",\"quantity\":1,\"requestId\":\"" + rid
                    + "\"}";
            List<CompletableFuture<String>> copies = new ArrayList<>();
            for (int c = 0; c < COPIES; c++) copies.add(finalStatus(t.pipeline.port(), rid, body));
            answers.put(rid, copies);
        }
        Map<String, List<String>> got = new HashMap<>();
        for (var e : answers.entrySet()) {
            List<String> statuses = new ArrayList<>();
            for (CompletableFuture<String> f : e.getValue()) statuses.add(f.join());
            got.put(e.getKey(), statuses);
        }
        t.injected();
        t.check(
                "each of the " + BUYERS + " buyers' " + COPIES + " copies answered alike; a SUCCESS has its order",
                () -> {
                    for (var e : got.entrySet())
                        if (e.getValue().stream().distinct().count() != 1
                                || e.getValue().get(0).startsWith("HTTP_"))
                            return "client retries of " + e.getKey() + " were answered " + e.getValue();
                    return TrafficFaults.successesHaveOrders(t, users);
                });
    }

    /** POST with {@code Prefer: wait=10}; a 202 is long-polled; a failed send is retried (for a minute). */
    private static CompletableFuture<String> finalStatus(int port, String rid, String body) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        HttpRequest post = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/purchases"))
                .header("content-type", "application/json")
                .header("prefer", "wait=10")
                .timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/purchases/" + rid))
                .header("prefer", "wait=10")
                .timeout(Duration.ofSeconds(15))
                .build();
        return until(post, get, deadline);
    }

    private static CompletableFuture<String> until(HttpRequest first, HttpRequest poll, long deadline) {
        if (System.nanoTime() > deadline) return CompletableFuture.completedFuture("HTTP_NO_ANSWER");
        return HTTP.sendAsync(first, HttpResponse.BodyHandlers.ofString())
                .handle((resp, err) -> {
                    if (err == null && resp.statusCode() == 200)
                        return CompletableFuture.completedFuture(status(resp.body()));
                    if (err == null && resp.statusCode() == 202) return until(poll, poll, deadline);
                    if (err == null && resp.statusCode() < 500)
                        return CompletableFuture.completedFuture("HTTP_" + resp.statusCode());
                    // no answer or 5xx: the same request again after a pause (a POST with the same requestId is safe)
                    return CompletableFuture.supplyAsync(
                                    () -> first, CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS))
                            .thenCompose(again -> until(again, poll, deadline));
                })
                .thenCompose(f -> f);
    }

    private static String status(String body) {
        Matcher m = STATUS.matcher(body);
        return m.find() ? m.group(1) : "HTTP_200";
    }
}
