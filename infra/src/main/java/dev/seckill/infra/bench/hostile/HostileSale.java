package dev.seckill.infra.bench.hostile;

import java.util.Map;

/**
 * One sale of {@code bench hostile} as its buyers saw it ({@link HostileBuyers}): buyer i is account {@code users[i]}
 * with {@code bearers[i]}, its purchase {@code requestIds[i]}, answered {@code outcomes[i]} after {@code micros[i]};
 * {@code replies}: the buyers' requests by method and answer status (e.g. {@code POST 200}).
 */
record HostileSale(
        long goods,
        int quantity,
        long[] users,
        String[] bearers,
        String[] requestIds,
        long[] micros,
        String[] outcomes,
        boolean[] accepted,
        boolean[] polled,
        boolean[] notFoundWhilePolling,
        Map<String, Long> replies,
        double seconds) {
    int buyers() {
        return users.length;
    }

    long count(String outcome) {
        long n = 0;
        for (String o : outcomes) if (outcome.equals(o)) n++;
        return n;
    }

    /** Purchases the gateway took (202, or 200 with this purchase's outcome): they must be known to their owner. */
    int acceptedCount() {
        return count(accepted);
    }

    int notFoundCount() {
        return count(notFoundWhilePolling);
    }

    /** Purchases whose POST was answered 202 (the outcome not known within its wait): their owner polled. */
    int polledCount() {
        return count(polled);
    }

    private static int count(boolean[] flags) {
        int n = 0;
        for (boolean f : flags) if (f) n++;
        return n;
    }
}
