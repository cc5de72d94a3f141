package dev.seckill.system.containers;

import dev.seckill.contracts.Json;
import dev.seckill.infra.harness.PurchaseHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.LongFunction;

/**
 * Buyers over HTTP through a gateway: each of {@code buyers} sends {@code requestsEach} purchases of {@code quantity}
 * units (the later ones are a buyer trying again, which the pipeline must answer DUPLICATE), in a seeded random order,
 * {@code concurrency} at a time. Keeps the requestIds of the 202s and the answers by status.
 */
record Buyers(URI gateway, long goods, int buyers, int requestsEach, int quantity, int concurrency, long seed) {
    /** {@code atTheDoor}: the final answers a 200 gave at once (no command sent), by their status. */
    record Result(
            Set<String> acceptedIds, Map<Integer, Integer> byStatus, Map<String, Integer> atTheDoor, int failed) {}

    Result run(LongFunction<String> bearerOf, IntConsumer progress) throws Exception {
        List<Long> order = new ArrayList<>();
        for (long b = 1; b <= buyers; b++) for (int i = 0; i < requestsEach; i++) order.add(b);
        Collections.shuffle(order, new Random(seed));
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Map<Integer, Integer> byStatus = new ConcurrentHashMap<>();
        Map<String, Integer> atTheDoor = new ConcurrentHashMap<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Semaphore inFlight = new Semaphore(concurrency);
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (long buyer : order) {
            inFlight.acquire();
            HttpRequest request = HttpRequest.newBuilder(gateway.resolve("/api/purchases"))
                    .timeout(Duration.ofSeconds(30))
                    .header("content-type", "application/json")
                    .header("authorization", bearerOf.apply(buyer))
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"goodsId\":" + goods + ",\"userId\":" + buyer + ",\"quantity\":" + quantity + "}"))
                    .build();
            all.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .whenComplete((resp, e) -> {
                        if (e != null) failed.incrementAndGet();
                        else {
                            byStatus.merge(resp.statusCode(), 1, Integer::sum);
                            if (resp.statusCode() == 202) accepted.add(PurchaseHttp.requestId(resp.body()));
                            if (resp.statusCode() == 200) atTheDoor.merge(statusOf(resp.body()), 1, Integer::sum);
                        }
                        inFlight.release();
                        progress.accept(done.incrementAndGet());
                    }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .exceptionally(e -> null)
                .join();
        return new Result(Set.copyOf(accepted), Map.copyOf(byStatus), Map.copyOf(atTheDoor), failed.get());
    }

    private static String statusOf(String body) {
        try {
            return Json.MAPPER.readTree(body).path("status").asText();
        } catch (Exception e) {
            return "unreadable: " + body;
        }
    }
}
