package dev.seckill.infra.harness.buyers;

import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * What a {@link BuyerLoad}'s buyers were told and when, per request (System.nanoTime): the first send, the final
 * answer, the time between, and the pipeline's own times ({@link RequestTimestamps}). Read while the load runs (a fault
 * waits for the first answer after it) and after it (what a window of buyers felt).
 */
public final class BuyerAnswers {
    private final String[] outcome;
    private final long[] sentAt;
    private final long[] answeredAt;
    private final long[] latencyMicros;
    private final RequestTimestamps times;

    BuyerAnswers(String[] outcome, long[] sentAt, long[] answeredAt, long[] latencyMicros, RequestTimestamps times) {
        this.outcome = outcome;
        this.sentAt = sentAt;
        this.answeredAt = answeredAt;
        this.latencyMicros = latencyMicros;
        this.times = times;
    }

    /**
     * After the load: milliseconds from {@code nanos} (System.nanoTime) to the first decided answer (SUCCESS,
     * SOLD_OUT, DUPLICATE, REJECTED) of a request first sent at or after it — how long a fault paused the sale; -1 if
     * none came.
     */
    public long firstAnswerAfter(long nanos) {
        long first = Long.MAX_VALUE;
        for (int i = 0; i < outcome.length; i++)
            if (outcome[i] != null && sentAt[i] >= nanos && Answer.decided(outcome[i]))
                first = Math.min(first, answeredAt[i]);
        return first == Long.MAX_VALUE ? -1 : (first - nanos) / 1_000_000;
    }

    /**
     * After the load: milliseconds from {@code nanos} (System.nanoTime) to the first final answer the stream decided at
     * or after it, whenever its request was sent — a purchase held when a stream instance died, decided by the one that
     * took over, counts: when the sale answered again, without the closed-loop buyer's second round that
     * {@link #firstAnswerAfter} waits for; -1 if none came (or the answers carry no decision time: a baseline).
     */
    public long firstDecidedAfter(long nanos) {
        int known = IntStream.range(0, outcome.length)
                .filter(i -> outcome[i] != null)
                .findFirst()
                .orElse(-1);
        if (known < 0) return -1;
        long atMs = times.sentMs(known) + (nanos - sentAt[known]) / 1_000_000; // one machine: one clock, two scales
        long first = Long.MAX_VALUE;
        for (int i = 0; i < outcome.length; i++)
            if (outcome[i] != null && Answer.decided(outcome[i]) && times.decidedMs(i) >= atMs)
                first = Math.min(first, answeredAt[i]);
        return first == Long.MAX_VALUE ? -1 : (first - nanos) / 1_000_000;
    }

    /** What the buyers who sent in a window felt: times to answer (µs) of the final answers, where the pipeline's went. */
    public record Felt(long[] micros, String hops) {}

    /** After the load: the requests first sent in {@code [fromNanos, toNanos)} (System.nanoTime) with a final answer. */
    public Felt feltBetween(long fromNanos, long toNanos) {
        int[] which = sentIn(fromNanos, toNanos, Answer::decided);
        AnswerHops hops = times.hops(which, which.length);
        return new Felt(latencies(which), hops == null ? "" : hops.toString());
    }

    /**
     * After the load: the requests first sent within {@code windowNanos} of the load's first request — what the buyers
     * of a sale's first moments felt: how many were sent, the times to answer (µs) of those answered, and for those the
     * pipeline's stream decided, where the time went ({@link AnswerHops}; null for a baseline).
     */
    public SentWithin sentWithin(long windowNanos) {
        long start = Long.MAX_VALUE;
        for (int i = 0; i < outcome.length; i++) if (outcome[i] != null) start = Math.min(start, sentAt[i]);
        int[] which = sentIn(start, start + windowNanos, o -> !o.equals(BuyerLoad.NO_ANSWER));
        int sent = sentIn(start, start + windowNanos, o -> true).length;
        return new SentWithin(sent, latencies(which), times.hops(which, which.length));
    }

    private int[] sentIn(long fromNanos, long toNanos, Predicate<String> counted) {
        return IntStream.range(0, outcome.length)
                .filter(i -> outcome[i] != null && sentAt[i] >= fromNanos && sentAt[i] < toNanos)
                .filter(i -> counted.test(outcome[i]))
                .toArray();
    }

    private long[] latencies(int[] which) {
        return IntStream.of(which).mapToLong(i -> latencyMicros[i]).toArray();
    }

    /** Requests sent in a window, the times to answer (µs) of those answered, and where the pipeline's went. */
    public record SentWithin(int sent, long[] answeredMicros, AnswerHops hops) {}
}
