package dev.seckill.infra.chaos;

import dev.seckill.infra.harness.buyers.FinalAnswer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Buyers whose client retries: each sends the same purchase (its own requestId) {@value #COPIES} times at once through
 * the gateway. Check: every copy ends in the same outcome, a SUCCESS has its order, no buyer two.
 */
final class ClientRetries {
    static final int BUYERS = 30;
    static final int COPIES = 4;

    private ClientRetries() {}

    static void run(ChaosTarget t) throws Exception {
        long at = System.nanoTime();
        String run = Long.toString(at, 36);
        Map<String, List<CompletableFuture<String>>> answers = new HashMap<>();
        Map<String, Long> users = new HashMap<>();
        for (int i = 0; i < BUYERS; i++) {
            String rid = "client-" + run + "-" + i;
            long user = 60_000_000L + i;
            users.put(rid, user);
            List<CompletableFuture<String>> copies = new ArrayList<>();
            for (int c = 0; c < COPIES; c++) copies.add(finalStatus(t, user, rid));
            answers.put(rid, copies);
        }
        Map<String, List<String>> got = new HashMap<>();
        for (var e : answers.entrySet()) {
            List<String> statuses = new ArrayList<>();
            for (CompletableFuture<String> f : e.getValue()) statuses.add(f.join());
            got.put(e.getKey(), statuses);
        }
        t.injected(at);
        t.check(
                "each of the " + BUYERS + " buyers' " + COPIES + " copies answered alike; a SUCCESS has its order",
                () -> {
                    for (var e : got.entrySet())
                        if (e.getValue().stream().distinct().count() != 1
                                || !FinalAnswer.DECIDED.contains(e.getValue().get(0)))
                            return "client retries of " + e.getKey() + " were answered " + e.getValue();
                    return TrafficFaults.successesHaveOrders(t, users);
                });
    }

    /** The final status of one copy ({@link GatewayCalls}); a refusal as {@code HTTP_<code>}, or NO_ANSWER. */
    private static CompletableFuture<String> finalStatus(ChaosTarget t, long user, String rid) {
        return t.calls.purchaseAsync(t.goods, user, 1, rid).thenApply(FinalAnswer::word);
    }
}
