package dev.seckill.contracts.command;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partition of the commands topic a goods' commands are decided in (docs/decisions.md, "Stock buckets"): the
 * rule stock-stream decides by and a producer may route by. A goods' <em>home</em> is where Kafka's default
 * partitioner puts the record key {@code goodsId}; a goods split into N buckets decides bucket b in the b-th partition
 * after it, a buyer always in one bucket, and claims each purchase's requestId in one bucket picked by a hash of
 * (goods, requestId) — so that the claims of a hot goods spread over its buckets rather than queue at its home.
 *
 * <p>Every command may go to the goods' home, as ever: the stream sends it on. A producer that knows the goods' bucket
 * count may send a purchase straight to {@link #claimPartition} and save the stream that hop; one that guesses wrong
 * (a sale opened since with more buckets) costs a hop, never a decision. A producer that makes the requestIds itself
 * can save the last hop too: {@link #idClaimedByBuyer} picks one claimed in the bucket its buyer buys from, so the
 * purchase is claimed and decided in one place.
 */
public final class CommandPartitions {
    private CommandPartitions() {}

    /** The partition Kafka's default partitioner gives the record key {@code key} among {@code partitions}. */
    public static int ofKey(String key, int partitions) {
        if (partitions < 1) throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** The goods' home: where its commands go keyed by the goods id, and where its bucket 0 is decided. */
    public static int home(long goodsId, int partitions) {
        return ofKey(Long.toString(goodsId), partitions);
    }

    /** The partition bucket {@code bucket} of the goods is decided in: the {@code bucket}-th after its home. */
    public static int bucketPartition(long goodsId, int bucket, int partitions) {
        return (home(goodsId, partitions) + bucket) % partitions;
    }

    /** The bucket a buyer buys from in a sale of {@code buckets} buckets: by a hash of the id, so sequential ids spread. */
    public static int bucketOf(long userId, int buckets) {
        return buckets <= 1 ? 0 : ofKey(Long.toString(userId), buckets);
    }

    /** The bucket a purchase's requestId is claimed in, in a first-come sale of {@code buckets} buckets. */
    public static int claimBucket(long goodsId, String requestId, int buckets) {
        return buckets <= 1 ? 0 : ofKey(goodsId + ":" + requestId, buckets);
    }

    /** The partition a purchase's requestId is claimed in: its claim bucket's. */
    public static int claimPartition(long goodsId, String requestId, int buckets, int partitions) {
        return bucketPartition(goodsId, claimBucket(goodsId, requestId, buckets), partitions);
    }

    /**
     * How many fresh ids {@link #idClaimedByBuyer} draws per bucket before it settles for one claimed elsewhere: at 16
     * per bucket the chance that none of them is the buyer's is below {@code e^-16} (one in nine million), whatever the
     * bucket count.
     */
    public static final int TRIES_PER_BUCKET = 16;

    /**
     * A requestId for a purchase of {@code goodsId} by {@code userId} in a first-come sale of {@code buckets} buckets
     * that claims over as many, claimed in the bucket the buyer buys from ({@link #idClaimedByBuyer(long, long, int, int,
     * Supplier)}).
     */
    public static String idClaimedByBuyer(long goodsId, long userId, int buckets, Supplier<String> fresh) {
        return idClaimedByBuyer(goodsId, userId, buckets, buckets, fresh);
    }

    /**
     * A requestId for a purchase of {@code goodsId} by {@code userId} in a sale of {@code buckets} buckets whose ids are
     * claimed over {@code claimBuckets} (the OPENED entries' {@code bucket.claims}), claimed in the bucket the buyer buys
     * from, drawn from {@code fresh} (which must give a new, unique id on every call): so the purchase, sent to {@link
     * #claimPartition}, is decided where it lands, with no hop. Only for ids the producer makes: a client's own id keeps
     * its meaning wherever it is claimed. Expected draws: {@code claimBuckets}; at most {@link #TRIES_PER_BUCKET} ×
     * claimBuckets, after which the last one is given (it costs a hop, never a decision). A buyer whose bucket claims
     * nothing in this layout (a drawn sale claims every id at home) gets the first id: no id saves its hop.
     */
    public static String idClaimedByBuyer(
            long goodsId, long userId, int buckets, int claimBuckets, Supplier<String> fresh) {
        String id = fresh.get();
        if (buckets <= 1) return id;
        int mine = bucketOf(userId, buckets);
        if (mine >= Math.max(1, claimBuckets)) return id;
        for (int tries = 1;
                tries < TRIES_PER_BUCKET * claimBuckets && claimBucket(goodsId, id, claimBuckets) != mine;
                tries++) id = fresh.get();
        return id;
    }
}
