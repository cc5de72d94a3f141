package dev.seckill.infra.harness.buyers;

import dev.seckill.infra.harness.Latencies;
import java.util.Arrays;

/**
 * Where the pipeline's time to answer went, per purchase decided by its stream, from the two times its answer carries
 * ({@code acceptedAt}: the gateway built the command, {@code decidedAt}: the stream decided it) against the client's
 * clock at send and at answer (one machine, one clock): sent → accepted (the client, the HTTP hop and the door),
 * accepted → decided (Kafka and the stream), decided → answer (the transaction's commit, the gateway's read of the
 * outcome, the reply). Milliseconds, p50 and p99 of each.
 */
public record AnswerHops(int purchases, Hop toAccepted, Hop toDecided, Hop toAnswer) {
    public record Hop(double p50, double p99) {
        static Hop of(long[] micros, int n) {
            long[] used = Arrays.copyOf(micros, n);
            return new Hop(Latencies.percentileMillis(used, 50, 0), Latencies.percentileMillis(used, 99, 0));
        }

        @Override
        public String toString() {
            return String.format("%.0f/%.0f ms", p50, p99);
        }
    }

    /**
     * From per-purchase epoch milliseconds; a purchase whose answer carried no {@code acceptedAt}/{@code decidedAt}
     * (answered at the door, or a baseline) has -1 there and is left out. Null when none had them.
     */
    static AnswerHops of(long[] sentMs, long[] acceptedMs, long[] decidedMs, long[] answeredMs) {
        int n = 0;
        long[] toAccepted = new long[sentMs.length];
        long[] toDecided = new long[sentMs.length];
        long[] toAnswer = new long[sentMs.length];
        for (int i = 0; i < sentMs.length; i++) {
            if (acceptedMs[i] < 0 || decidedMs[i] < 0) continue;
            toAccepted[n] = 1_000 * (acceptedMs[i] - sentMs[i]);
            toDecided[n] = 1_000 * (decidedMs[i] - acceptedMs[i]);
            toAnswer[n] = 1_000 * (answeredMs[i] - decidedMs[i]);
            n++;
        }
        if (n == 0) return null;
        return new AnswerHops(n, Hop.of(toAccepted, n), Hop.of(toDecided, n), Hop.of(toAnswer, n));
    }

    @Override
    public String toString() {
        return String.format(
                "%,d decided by the stream, p50/p99: sent → accepted %s, accepted → decided %s, decided → answer %s",
                purchases, toAccepted, toDecided, toAnswer);
    }
}
