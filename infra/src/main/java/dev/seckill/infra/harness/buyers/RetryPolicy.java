package dev.seckill.infra.harness.buyers;

/**
 * How a buyer follows a purchase to its final answer ({@link BuyerClient}): how long it holds each call, how long it
 * goes on, how soon it asks again, and what a refusal means. One record, so the benchmarks, the chaos scenarios and
 * the harness differ only where a policy says so.
 *
 * <p>What every policy shares: a reply that is a decision (200 SUCCESS, SOLD_OUT, DUPLICATE or REJECTED) is final; a
 * 202, or a 200 not yet decided (PENDING, WAITING_DRAW), is followed with {@code GET /api/purchases/{requestId}}; a 503
 * naming a requestId (the gateway does not know whether it took the purchase: UNKNOWN) is sent again with that id
 * after its Retry-After, as the contract asks; a call with no reply at all (the server is down or restarting) is sent
 * again after {@link #pauseMillis}; a 404 while following an accepted purchase is noted and asked again; any other 4xx
 * is final.
 *
 * @param waitSeconds {@code Prefer: wait=N} on the purchase and on each follow-up (0: none — a follow-up that is not
 *     decided is then asked again after the pause, not at once)
 * @param replyMillis how long one call may go without its reply before it counts as no reply (0: however long — a
 *     paused server answers late)
 * @param giveUpMillis how long after the first send the buyer stops asking: then its answer is no answer
 * @param pauseMillis the pause before a call that got no reply, or a follow-up not yet decided, is sent again
 * @param tooMany what a 429 means
 * @param busy what a 5xx that names no requestId means
 */
public record RetryPolicy(
        int waitSeconds, long replyMillis, long giveUpMillis, long pauseMillis, Refusal tooMany, Refusal busy) {

    /** What a refusal (429, or a 5xx naming no requestId) means to the buyer. */
    public enum Refusal {
        /** It is the answer (a baseline strategy's rate limit or "系统繁忙" is what its buyer is told). */
        FINAL,
        /** Come back later: sent again after its Retry-After (the pause when it names none). */
        RETRY
    }

    public RetryPolicy {
        if (waitSeconds < 0 || replyMillis < 0 || giveUpMillis <= 0 || pauseMillis <= 0)
            throw new IllegalArgumentException("a retry policy needs a wait and a reply time of 0 or more and a"
                    + " positive give-up time and pause, got " + this);
    }

    /**
     * The closed-loop buyers of {@code bench strategies} and of the chaos runs: every strategy's refusals are its
     * answer (the baselines tell their buyers 429 and 503), a call waits for its reply however long, a minute in all.
     */
    public static RetryPolicy closedLoop(int waitSeconds) {
        return new RetryPolicy(waitSeconds, 0, 60_000, 100, Refusal.FINAL, Refusal.FINAL);
    }

    /**
     * A buyer that does what the gateway's contract asks of a client: a 429 or a 5xx is sent again after its
     * Retry-After, {@code Prefer: wait=waitSeconds}, a minute in all (the hostile benchmark's buyers, the chaos
     * scenarios' own).
     */
    public static RetryPolicy patient(int waitSeconds) {
        return new RetryPolicy(waitSeconds, 20_000 + waitSeconds * 1_000L, 60_000, 100, Refusal.RETRY, Refusal.RETRY);
    }
}
