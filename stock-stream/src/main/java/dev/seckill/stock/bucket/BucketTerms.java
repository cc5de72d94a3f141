package dev.seckill.stock.bucket;

/**
 * How a stream runs bucketed goods (docs/decisions.md, "Stock buckets").
 *
 * @param partitions the commands topic's partition count (0: unknown, sales opened with buckets are refused)
 * @param seal the key hops are sealed with (unkeyed: sales opened with buckets are refused)
 * @param prefetch units a borrow asks beyond what the purchase that ran short needs
 * @param reborrowAfterMs how long, in record time, a bucket answers SOLD_OUT after a borrow found every bucket empty
 */
public record BucketTerms(int partitions, HopSeal seal, long prefetch, long reborrowAfterMs) {
    /** No buckets: every open with buckets is refused. */
    public static final BucketTerms OFF = new BucketTerms(0, new HopSeal(""), 0, 1_000);

    public BucketTerms {
        if (partitions < 0) throw new IllegalArgumentException("partitions must be at least 0, got " + partitions);
        if (prefetch < 0) throw new IllegalArgumentException("prefetch must be at least 0, got " + prefetch);
        if (reborrowAfterMs < 0)
            throw new IllegalArgumentException("reborrowAfterMs must be at least 0, got " + reborrowAfterMs);
    }

    /** Why a sale of {@code buckets} buckets cannot be opened here; null when it can. */
    public String refusal(int buckets) {
        if (!seal.keyed())
            return "a sale with buckets needs SECKILL_STREAM_HOP_SECRET set on every stock-stream instance";
        if (partitions == 0) return "a sale with buckets needs the commands topic's partition count, unknown here";
        if (buckets > partitions)
            return "buckets " + buckets + " exceeds the commands topic's " + partitions
                    + " partitions (each bucket is decided in a partition of its own)";
        return null;
    }

    /** Where the {@code buckets} of {@code goodsId} live under these terms. */
    public BucketPlan plan(long goodsId, int buckets) {
        return new BucketPlan(goodsId, buckets, Math.max(buckets, Math.max(1, partitions)));
    }

    /** These terms for a commands topic of {@code count} partitions. */
    public BucketTerms withPartitions(int count) {
        return new BucketTerms(count, seal, prefetch, reborrowAfterMs);
    }
}
