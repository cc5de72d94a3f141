package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * A drawn sale of a goods split into buckets (docs/invariants.md, "A draw across buckets"): one draw at the goods'
 * home ranks the whole goods' window, and the home hands the units out in the draw's order. Its open keeps every unit
 * in bucket 0 (the others open first-come, with none); as the draw passes its entries on, the home takes exactly a
 * winner's units from bucket 0 and sends them with the purchase to the buyer's bucket (TRANSFERRED_OUT here, a {@code
 * transfer_in} hop, then the purchase), or answers SOLD_OUT itself once bucket 0 cannot cover it — so the winners are the
 * draw's first buyers as far as the goods' units go, whatever bucket each buyer is in. What the rules refuse anyway (a
 * quantity over the limit, a buyer's request after the one that was given units, outside the sale) goes without units,
 * for its bucket to refuse. After the release the goods' buckets borrow as any bucketed goods' do.
 */
final class DrawnBuckets {
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final PurchaseDecisions purchases;

    DrawnBuckets(StockScripts scripts, Clock clock, FoldStore folds, PurchaseDecisions purchases) {
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.purchases = purchases;
    }

    /** What the buckets other than home open with, for a drawn open: a first-come sale without units. */
    static OpenSale elsewhere(OpenSale o) {
        return new OpenSale(
                o.goodsId(),
                0,
                o.startAt(),
                o.endAt(),
                o.perUserLimit(),
                o.opId(),
                o.force(),
                Fairness.FCFS,
                0,
                o.buckets());
    }

    /** Bucket {@code bucket}'s units of a drawn open's {@code stock}: all of them at home, none elsewhere. */
    static long share(long stock, int bucket) {
        return bucket == 0 ? stock : 0;
    }

    /**
     * A purchase the draw passed on at home for a buyer of bucket {@code bucket} (not 0). {@code routed}: the ordinary
     * claim and hop (a requestId the goods knows is answered by it: a retry, or a reuse refused).
     */
    Step allotted(Purchase p, int bucket, Decider.Input in, Supplier<Step> routed) {
        GoodsFold fold = folds.get(p.goodsId());
        if (folds.decision(p.goodsId(), FoldStore.purchaseKey(p.requestId())) != null || !wins(p, fold))
            return routed.get();
        return new Step.Call(scripts.takeCall(p.goodsId(), p.quantity(), KeysAt.unchained(in.offset())), r -> {
            // closed since this batch began (the close is decided before, its hops go first): the bucket refuses it
            if ("CLOSED".equals(r.code())) return ((Step.Decided) routed.get()).decision();
            if (!"MOVED".equals(r.code()))
                return purchases.answered(p, new LuaResult("SOLD_OUT", "", r.stockAfter(), LuaResult.Status.NEW), in);
            Decision claim = ((Step.Decided) routed.get()).decision(); // the claim kept: the hop of the purchase
            GoodsFold f = folds.get(p.goodsId());
            f.stock -= p.quantity();
            f.drawGiven = p.userId();
            folds.put(p.goodsId(), f);
            // no client opId begins so (CommandRules.validOpId); "d" and the home's offset: no borrow's
            String opId = CommandRules.STREAM_OP_PREFIX + p.goodsId() + ":" + bucket + ":d" + in.offset();
            LedgerEntry out = LedgerEntry.of(
                    BucketOf.transferOpId(opId, LedgerType.TRANSFERRED_OUT),
                    p.goodsId(),
                    LedgerType.TRANSFERRED_OUT,
                    p.quantity(),
                    null,
                    null,
                    null,
                    r.stockAfter(),
                    clock.instant());
            Hop units = Hop.transferIn(p.goodsId(), f.saleOpId, 0, bucket, p.quantity(), opId);
            // the units first, then the purchase: one producer, one partition, so the bucket reads them in this order
            return BucketLedger.tagged(folds, Decision.of(null, out), p.goodsId(), in.partition(), bucket)
                    .sending(List.of(units))
                    .sending(claim.hops());
        });
    }

    /**
     * Whether the purchase wins if units are left, as its bucket will judge it: an open sale, within its time and the per-user limit,
     * and not a further request of the buyer the draw last gave units to (a buyer's requests come together).
     */
    private static boolean wins(Purchase p, GoodsFold fold) {
        long at = p.acceptedAt().toEpochMilli();
        return "open".equals(fold.status)
                && p.quantity() <= fold.perUserLimit
                && at >= fold.startAt
                && at < fold.endAt
                && fold.drawGiven != p.userId();
    }
}
