package dev.seckill.stock.bucket;

import dev.seckill.contracts.command.CommandPartitions;

/**
 * Where the buckets of one goods live and who buys from which (docs/decisions.md, "Stock buckets"). Bucket 0 is the
 * goods' home partition — where Kafka's default partitioner puts the key {@code goodsId}, i.e. where a one-bucket sale
 * is decided today — and bucket b is the b-th partition after it, so N ≤ P buckets are N distinct partitions. A buyer
 * always uses one bucket; a requestId is claimed in one bucket whatever its buyer ({@link CommandPartitions}).
 *
 * @param goodsId the goods
 * @param buckets how many buckets its stock is split across, 1..{@link #MAX_BUCKETS} and at most {@code partitions}
 * @param partitions the commands topic's partition count
 */
public record BucketPlan(long goodsId, int buckets, int partitions) {
    /** More buckets than this buys nothing on any machine the project targets, and bounds a borrow's ring. */
    public static final int MAX_BUCKETS = 64;

    public BucketPlan {
        if (goodsId <= 0) throw new IllegalArgumentException("goodsId must be positive, got " + goodsId);
        if (partitions < 1) throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        if (buckets < 1 || buckets > Math.min(MAX_BUCKETS, partitions))
            throw new IllegalArgumentException("buckets must be 1.." + Math.min(MAX_BUCKETS, partitions)
                    + " (at most the commands topic's " + partitions + " partitions), got " + buckets);
    }

    /** The partition the key {@code goodsId} goes to: Kafka's default partitioner on the goods id's decimal text. */
    public int home() {
        return homeOf(Long.toString(goodsId), partitions);
    }

    /** The partition Kafka's default partitioner gives the record key {@code key} among {@code partitions}. */
    public static int homeOf(String key, int partitions) {
        return CommandPartitions.ofKey(key, partitions);
    }

    /** The partition bucket {@code bucket} is decided in. */
    public int partitionOf(int bucket) {
        if (bucket < 0 || bucket >= buckets)
            throw new IllegalArgumentException("bucket must be 0.." + (buckets - 1) + ", got " + bucket);
        return (home() + bucket) % partitions;
    }

    /** The bucket a buyer buys from, the same for the whole sale: by a hash of the id, so sequential ids spread. */
    public int bucketOf(long userId) {
        return CommandPartitions.bucketOf(userId, buckets);
    }

    /** The opening stock of each bucket: equal shares, the remainder one unit each to the first buckets. */
    public long[] shares(long stock) {
        if (stock < 0) throw new IllegalArgumentException("stock must be at least 0, got " + stock);
        long[] out = new long[buckets];
        for (int b = 0; b < buckets; b++) out[b] = stock / buckets + (b < stock % buckets ? 1 : 0);
        return out;
    }

    /** The bucket after {@code bucket} on the borrow ring. */
    public int next(int bucket) {
        return (bucket + 1) % buckets;
    }
}
