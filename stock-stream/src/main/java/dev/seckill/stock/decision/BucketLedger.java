package dev.seckill.stock.decision;

import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;

/** The ledger entries of a bucketed goods: v2, each naming the bucket it happened in (docs/contracts.md). */
final class BucketLedger {
    private BucketLedger() {}

    /**
     * The decision with its ledger entry in its bucket: v2, naming the bucket (and on a transfer the {@code peer}),
     * an operation every bucket applies under its share's opId.
     */
    static Decision tagged(FoldStore folds, Decision d, long goodsId, int partition, Integer peer) {
        GoodsFold fold = folds.get(goodsId);
        if (!d.hasLedger() || fold == null || !fold.bucketed()) return d;
        BucketOf where = BucketOf.of(fold.bucket, fold.buckets, partition);
        // an open's share says the sale's claim layout, so producers route and draw ids by it (docs/contracts.md)
        if (d.ledger().type() == LedgerType.OPENED) where = where.withClaims(Math.max(1, fold.claimBuckets));
        LedgerEntry e = d.ledger().inBucket(peer == null ? where : where.withPeer(peer));
        if (e.type() == LedgerType.OPENED || e.type() == LedgerType.CLOSED || e.type() == LedgerType.RESTORED)
            e = e.withOpId(BucketOf.shareOpId(e.opId(), fold.bucket));
        return new Decision.Emit(d.outcome(), e, d.hops());
    }
}
