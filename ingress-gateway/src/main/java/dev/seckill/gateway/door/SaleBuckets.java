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
    /** A goods' current sale: split into {@code buckets}, its requestIds claimed over {@code claims}. */
    private record Layout(int buckets, int claims) {}

    private final Map<Long, Layout> split = new ConcurrentHashMap<>();
    private volatile int partitions;

    /**
     * The ledger says the goods' current sale is split into {@code buckets} (1: not split): an entry that is not an
     * open keeps the claim layout its sale's OPENED said, or — a sale whose open this view did not see — takes the
     * usual one, over every bucket.
     */
    public void split(long goodsId, int buckets) {
        Layout known = split.get(goodsId);
        opened(goodsId, buckets, known != null && known.buckets() == buckets ? known.claims() : buckets);
    }

    /** An OPENED entry says the goods' sale is split into {@code buckets} and claims its ids over {@code claims}. */
    public void opened(long goodsId, int buckets, int claims) {
        if (buckets > 1) split.put(goodsId, new Layout(buckets, Math.max(1, claims)));
        else split.remove(goodsId);
    }

    /** The commands topic's partition count (until it is known, every purchase goes by its key). */
    public void partitions(int count) {
        this.partitions = count;
    }

    /** How many buckets the goods' current sale is split into, as the ledger said last (1: not split, or not known). */
    int bucketsOf(long goodsId) {
        Layout l = split.get(goodsId);
        return l == null ? 1 : l.buckets();
    }

    /** How many goods the gateway knows split into buckets (a gauge: {@code seckill_gateway_bucketed_goods}). */
    public int splitCount() {
        return split.size();
    }

    /** The partition to send the purchase to, the one that claims its id; null: by its key, to the goods' home. */
    Integer partitionOf(long goodsId, String requestId) {
        Layout l = known(goodsId);
        return l == null ? null : CommandPartitions.claimPartition(goodsId, requestId, l.claims(), partitions);
    }

    /**
     * The requestId the gateway issues for a purchase of {@code goodsId} by {@code userId} that named none, drawn from
     * {@code fresh}: for a goods split into buckets, one claimed in the buyer's own bucket ({@link
     * CommandPartitions#idClaimedByBuyer}: as many draws expected as the sale claims over); otherwise the first drawn.
     */
    String issue(long goodsId, long userId, Supplier<String> fresh) {
        Layout l = known(goodsId);
        return l == null
                ? fresh.get()
                : CommandPartitions.idClaimedByBuyer(goodsId, userId, l.buckets(), l.claims(), fresh);
    }

    /** The goods' layout when the gateway can route by it: split, and every bucket and claim a partition. */
    private Layout known(long goodsId) {
        Layout l = split.get(goodsId);
        return l == null || partitions < Math.max(l.buckets(), l.claims()) ? null : l;
    }
}
