package dev.seckill.infra.harness.buyers;

/** What a baseline strategy tells the buyer, as the pipeline's gateway would: an outcome and its HTTP status. */
public enum Answer {
    SUCCESS(200),
    SOLD_OUT(200),
    DUPLICATE(200),
    /** The per-user rate limit (the write-up's first step), as the gateway's 429. */
    RATE_LIMITED(429),
    /** The optimistic lock gave up after its retries, or the pool had no connection in time: "系统繁忙". */
    BUSY(503);

    public final int status;

    Answer(int status) {
        this.status = status;
    }

    /** Whether an answer (as the load records it) is a decision: SUCCESS, SOLD_OUT, DUPLICATE or REJECTED. */
    static boolean decided(String what) {
        return what.equals(SUCCESS.name())
                || what.equals(SOLD_OUT.name())
                || what.equals(DUPLICATE.name())
                || what.equals("REJECTED");
    }
}
