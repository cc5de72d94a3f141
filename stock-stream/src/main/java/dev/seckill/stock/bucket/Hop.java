package dev.seckill.stock.bucket;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A record one bucket of a goods sends to another — or to itself — on the commands topic (docs/decisions.md, "Stock
 * buckets"): a client's command routed to the bucket that decides it ({@link Kind#COMMAND}, the client's bytes, an open
 * re-encoded with the sale's bucket count), a client's purchase sent to the bucket that claims its requestId ({@link
 * Kind#CLAIM}, the client's bytes; to bucket 0, the home, when it reached a bucket that cannot judge where), a {@link
 * Kind#BORROW} going round the ring, or the units a borrow moved ({@link Kind#TRANSFER_IN}). It is produced to {@code (home + bucket) mod partitions}, keyed by the goods, and sealed
 * ({@link HopSeal}) so that no producer but the stream can write one.
 *
 * @param kind what the value is
 * @param bucket the bucket it is for
 * @param value the record's value
 * @param since a parked purchase's: the record time it was first parked at (its pass is judged from it, however often
 *     it goes round the log); -1 for any other hop
 * @param claimBuckets an open's share: over how many buckets the sale claims requestIds (1: all at home); -1 for any
 *     other hop
 * @param sale a claimed purchase's: the opId of the open of the sale it was claimed in (its bucket decides it only in
 *     that sale); a claim the home sends: the home's sale (claimed only in it); null for any other hop
 */
public record Hop(Kind kind, int bucket, byte[] value, long since, int claimBuckets, String sale) {
    public enum Kind {
        COMMAND,
        CLAIM,
        BORROW,
        TRANSFER_IN;

        public String wire() {
            return name().toLowerCase();
        }

        /** The kind a header names; null for anything else. */
        public static Kind ofWire(String wire) {
            for (Kind k : values()) if (k.wire().equals(wire)) return k;
            return null;
        }
    }

    /** A hop that is not a parked purchase. */
    public Hop(Kind kind, int bucket, byte[] value) {
        this(kind, bucket, value, -1, -1, null);
    }

    /** A hop that is not an open's share. */
    public Hop(Kind kind, int bucket, byte[] value, long since) {
        this(kind, bucket, value, since, -1, null);
    }

    /** Bucket {@code bucket}'s share of an open ({@code value}), in a sale that claims over {@code claimBuckets}. */
    public static Hop share(int bucket, byte[] value, int claimBuckets) {
        if (claimBuckets < 1)
            throw new IllegalArgumentException("claimBuckets must be at least 1, got " + claimBuckets);
        return new Hop(Kind.COMMAND, bucket, value, -1, claimBuckets, null);
    }

    /** A client's purchase sent by the home, in sale {@code sale}, to bucket {@code bucket}, which claims its id. */
    public static Hop claim(int bucket, byte[] value, String sale) {
        return new Hop(Kind.CLAIM, bucket, value, -1, -1, sale);
    }

    /** A purchase claimed in sale {@code sale} (its open's opId), sent to its buyer's bucket {@code bucket}. */
    public static Hop claimed(int bucket, byte[] value, String sale) {
        return new Hop(Kind.COMMAND, bucket, value, -1, -1, sale);
    }

    public Hop {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(value, "value");
        if (bucket < 0 || bucket >= BucketPlan.MAX_BUCKETS)
            throw new IllegalArgumentException("bucket must be 0.." + (BucketPlan.MAX_BUCKETS - 1) + ", got " + bucket);
    }

    /**
     * A borrow of {@code want} units for bucket {@code borrower}'s parked purchases in the sale opened by {@code sale}
     * (its open's opId), delivered to {@code to}, of a goods split into {@code buckets}.
     */
    public static Hop borrow(long goodsId, String sale, int buckets, int borrower, int to, long want, String opId) {
        return new Hop(
                Kind.BORROW,
                to,
                ("{\"goodsId\":" + goodsId + ",\"sale\":\"" + sale + "\",\"buckets\":" + buckets + ",\"borrower\":"
                                + borrower + ",\"want\":"
                                + want + ",\"opId\":\"" + opId + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** {@code units} moved out of bucket {@code from} for {@code to}'s borrow {@code borrowOpId} in sale {@code sale}. */
    public static Hop transferIn(long goodsId, String sale, int from, int to, long units, String borrowOpId) {
        return new Hop(
                Kind.TRANSFER_IN,
                to,
                ("{\"goodsId\":" + goodsId + ",\"sale\":\"" + sale + "\",\"from\":" + from + ",\"units\":" + units
                                + ",\"borrowOpId\":\"" + borrowOpId + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }
}
