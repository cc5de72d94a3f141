package dev.seckill.contracts.ledger;

/**
 * Where a ledger entry's change happened when its goods' stock is split into buckets (docs/contracts.md, "Stock
 * buckets"; a v2 entry): bucket {@code index} of {@code count}, decided in commands partition {@code partition} in its
 * own serial order — the partition its offsets ({@code commandOffset}, {@code openOffset}) are of, which is not the
 * ledger record's own (every entry of a goods is keyed by it, so all go to its home partition). {@code peer}: on
 * TRANSFERRED_OUT the bucket the units went to, on TRANSFERRED_IN the one they came from; absent otherwise. {@code
 * claims}: on OPENED, over how many buckets the sale claims requestIds — bucket {@code hash(goods:requestId) mod
 * claims} claims one ({@code CommandPartitions.claimBucket}); 1: all at the home (a drawn sale); usually {@code
 * count}, but a sale opened while an earlier sale's ids are remembered keeps that sale's layout — so a producer routes
 * and draws ids by it; absent on other entries (and on OPENED entries written before the layout was recorded: take
 * {@code count}). An entry without a bucket is of a one-bucket sale (bucket 0 of 1, in its record's partition).
 */
public record BucketOf(int index, int count, int partition, Integer peer, Integer claims) {
    /** More buckets than this buys nothing on any machine the project targets. */
    public static final int MAX_COUNT = 64;

    public BucketOf {
        if (count < 1 || count > MAX_COUNT)
            throw new IllegalArgumentException("bucket count must be 1.." + MAX_COUNT + ", got " + count);
        if (index < 0 || index >= count)
            throw new IllegalArgumentException("bucket must be 0.." + (count - 1) + ", got " + index);
        if (partition < 0) throw new IllegalArgumentException("partition must be at least 0, got " + partition);
        if (peer != null && (peer < 0 || peer >= count || peer == index))
            throw new IllegalArgumentException(
                    "peer bucket must be another of 0.." + (count - 1) + " than " + index + ", got " + peer);
        if (claims != null && (claims < 1 || claims > MAX_COUNT))
            throw new IllegalArgumentException("claims must be 1.." + MAX_COUNT + ", got " + claims);
    }

    /** Bucket {@code index} of {@code count}, decided in commands partition {@code partition}; not a transfer's. */
    public static BucketOf of(int index, int count, int partition) {
        return new BucketOf(index, count, partition, null, null);
    }

    /** This bucket, on a transfer with {@code peer}. */
    public BucketOf withPeer(int peer) {
        return new BucketOf(index, count, partition, peer, claims);
    }

    /** This bucket, on its share of an open of a sale that claims requestIds over {@code claims} buckets. */
    public BucketOf withClaims(int claims) {
        return new BucketOf(index, count, partition, peer, claims);
    }

    /** Over how many buckets the sale claims requestIds, as this OPENED entry says ({@code count} when it does not). */
    public int claimBuckets() {
        return claims == null ? count : claims;
    }

    /**
     * The opIds of one transfer's two entries: the borrow that asked for it ({@code borrowOpId}, unique per goods) and
     * the side. Two entries, each claimed once by its opId, so a transfer applied twice moves nothing twice.
     */
    public static String transferOpId(String borrowOpId, LedgerType side) {
        if (side != LedgerType.TRANSFERRED_OUT && side != LedgerType.TRANSFERRED_IN)
            throw new IllegalArgumentException("a transfer's side is TRANSFERRED_OUT or TRANSFERRED_IN, got " + side);
        return borrowOpId + (side == LedgerType.TRANSFERRED_OUT ? ":out" : ":in");
    }

    /**
     * The opId of one bucket's share of an operation every bucket of a goods applies (its open, close, restore):
     * one change per bucket, each claimed once by its own opId ({@code @} is outside the ids' characters, so no client
     * opId can be another's share).
     */
    public static String shareOpId(String opId, int bucket) {
        return opId + "@b" + bucket;
    }
}
