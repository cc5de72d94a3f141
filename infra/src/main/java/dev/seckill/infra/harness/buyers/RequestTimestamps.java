package dev.seckill.infra.harness.buyers;

import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * The wall-clock times of each request of a {@link BuyerLoad} (epoch ms at its first send and at its answer) and the
 * times its answer carried ({@code acceptedAt}, {@code decidedAt}: the pipeline's; a baseline's answers carry none),
 * kept as the strings the answer held until the load is over, so that the load pays nothing to parse them.
 * Written on the load's event loop, read after it (the load's end publishes them).
 */
final class RequestTimestamps {
    private final long[] sentMs;
    private final long[] answeredMs;
    private final String[] acceptedAt;
    private final String[] decidedAt;

    RequestTimestamps(int requests) {
        sentMs = new long[requests];
        answeredMs = new long[requests];
        acceptedAt = new String[requests];
        decidedAt = new String[requests];
    }

    void sent(int i) {
        sentMs[i] = System.currentTimeMillis();
    }

    /** The final answer's body (its times, when it has them). */
    void outcome(int i, JsonObject body) {
        acceptedAt[i] = body.getString("acceptedAt");
        decidedAt[i] = body.getString("decidedAt");
    }

    void answered(int i) {
        answeredMs[i] = System.currentTimeMillis();
    }

    /** Epoch ms of the request's first send. */
    long sentMs(int i) {
        return sentMs[i];
    }

    /** Epoch ms at which the stream decided the request, as its answer said; -1 when it did not say. */
    long decidedMs(int i) {
        return epochMillis(decidedAt[i]);
    }

    /** The hops of the requests {@code which[0..n)}; null when none of their answers carried the times. */
    AnswerHops hops(int[] which, int n) {
        long[] sent = new long[n];
        long[] accepted = new long[n];
        long[] decided = new long[n];
        long[] answered = new long[n];
        for (int k = 0; k < n; k++) {
            int i = which[k];
            sent[k] = sentMs[i];
            accepted[k] = epochMillis(acceptedAt[i]);
            decided[k] = epochMillis(decidedAt[i]);
            answered[k] = answeredMs[i];
        }
        return AnswerHops.of(sent, accepted, decided, answered);
    }

    private static long epochMillis(String iso) {
        return iso == null ? -1 : Instant.parse(iso).toEpochMilli();
    }
}
