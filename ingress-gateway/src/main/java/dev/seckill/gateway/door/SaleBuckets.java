package dev.seckill.gateway.door;

import dev.seckill.contracts.command.CommandPartitions;
import dev.seckill.gateway.readside.OutcomeView;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Where the gateway sends a purchase of a goods split into buckets (docs/decisions.md, "Stock buckets"): straight to
 * the partition that claims its requestId ({@link CommandPartitions#claimPartition}), so the stream decides it with at
 * most one hop and the goods' home does not read every purchase of the sale. What it knows of each goods' bucket
 * count comes from the ledger ({@link OutcomeView}); a goods it knows nothing of, or a purchase a draw holds, goes to
 * the goods' home by its key, as ever — the stream sends on whatever reaches a partition that does not claim it, so a
 * stale count costs a hop, never a decision. An id the gateway makes for a buyer ({@link #issue}) is one claimed in
 * the bucket the buyer buys from, so such a purchase is claimed and decided where it lands, with no hop at all.
 */
public final class SaleBuckets {
    private final Map<Long, Integer> split = new ConcurrentHashMap<>();
    private volatile int partitions;

    /** The ledger says the goods' current sale is split into {@code buckets} (1: not split). */
    public void split(long goodsId, int buckets) {
        if (buckets > 1) split.put(goodsId, buckets);
        else split.remove(goodsId);
    }

    /** The commands topic's partition count (until it is known, every purchase goes by its key). */
    public void partitions(int count) {
        this.partitions = count;
    }

    /** How many buckets the goods' current sale is split into, as the ledger said last (1: not split, or not known). */
    int bucketsOf(long goodsId) {
        return split.getOrDefault(goodsId, 1);
    }

    /** How many goods the gateway knows split into buckets (a gauge: {@code seckill_gateway_bucketed_goods}). */
    public int splitCount() {
        return split.size();
    }

    /** The partition to send the purchase to; null: by its key, to the goods' home. */
    Integer partitionOf(long goodsId, String requestId) {
        Integer buckets = split.get(goodsId);
        int p = partitions;
        if (buckets == null || p < buckets) return null;
        return CommandPartitions.claimPartition(goodsId, requestId, buckets, p);
    }

    /**
     * The requestId the gateway issues for a purchase of {@code goodsId} by {@code userId} that named none, drawn from
     * {@code fresh}: for a goods split into buckets, one claimed in the buyer's own bucket ({@link
     * CommandPartitions#idClaimedByBuyer}: {@code buckets} draws expected); otherwise the first drawn.
     */
    String issue(long goodsId, long userId, Supplier<String> fresh) {
        Integer buckets = split.get(goodsId);
        if (buckets == null || partitions < buckets) return fresh.get();
        return CommandPartitions.idClaimedByBuyer(goodsId, userId, buckets, fresh);
    }
}
