package dev.seckill.stock.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.bucket.BucketPlan;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * How units move between the buckets of a goods (docs/invariants.md, "Stock buckets"): a purchase its bucket cannot
 * cover is parked — sent back to the end of the bucket's own order, nothing kept of it — while a borrow goes round the
 * other buckets; a bucket with units gives half (at least 1, at most what is wanted) as TRANSFERRED_OUT and a
 * {@code transfer_in} hop, one without passes the borrow on; a borrow back home found every bucket empty, and the
 * bucket answers SOLD_OUT for {@code reborrowAfterMs} of record time. Each side of a transfer is kept among the
 * bucket's decisions by its opId, so a copy moves nothing twice.
 */
final class BucketTransfers {
    private final BucketTerms terms;
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;

    BucketTransfers(BucketTerms terms, StockScripts scripts, Clock clock, FoldStore folds) {
        this.terms = terms;
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
    }

    /**
     * A purchase its bucket's units do not cover: SOLD_OUT (null) when a borrow came back having found every bucket
     * empty after the purchase was first parked, or less than {@code reborrowAfterMs} of record time before; else
     * parked at the end of the bucket's order (carrying when it was first parked, so that one pass after that answers
     * it however often it goes round), and a borrow sent round when none is.
     */
    Decision parked(Purchase p, int bucket, Decider.Input in) {
        GoodsFold fold = folds.get(p.goodsId());
        if (fold == null || !fold.bucketed()) return null;
        long since = in.hop() != null && in.hop().since() >= 0 ? in.hop().since() : Math.max(0, in.timestamp());
        if (fold.emptyPassAt > 0 && since <= fold.emptyPassAt + terms.reborrowAfterMs()) return null;
        List<Hop> hops = new ArrayList<>(2);
        hops.add(new Hop(Hop.Kind.COMMAND, bucket, in.raw(), since));
        if (fold.borrowing == null) {
            // no client opId begins so (CommandRules.validOpId): none is a borrow's, nor its transfer's
            fold.borrowing = CommandRules.STREAM_OP_PREFIX + p.goodsId() + ":" + bucket + ":" + in.offset();
            folds.put(p.goodsId(), fold);
            BucketPlan plan = terms.plan(p.goodsId(), fold.buckets);
            hops.add(Hop.borrow(
                    p.goodsId(),
                    fold.saleOpId,
                    fold.buckets,
                    bucket,
                    plan.next(bucket),
                    p.quantity() + terms.prefetch(),
                    fold.borrowing));
        }
        return Decision.hops(hops);
    }

    /** A borrow or a transfer in, at the bucket it is for. */
    Step moved(Hop hop, Decider.Input in) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(hop.value());
        } catch (IOException e) {
            return Step.decided(Decision.dlq("hop " + hop.kind().wire() + " not JSON: " + e.getMessage()));
        }
        long goodsId = n.path("goodsId").asLong();
        if (!Long.toString(goodsId).equals(in.key()))
            return Step.decided(
                    Decision.dlq("hop " + hop.kind().wire() + " of goods " + goodsId + " keyed " + in.key()));
        GoodsFold fold = folds.get(goodsId);
        if (fold != null && fold.bucketed() && fold.bucket != hop.bucket())
            return Step.decided(Decision.dlq("hop " + hop.kind().wire() + " for bucket " + hop.bucket()
                    + " reached the partition of bucket " + fold.bucket));
        return hop.kind() == Hop.Kind.BORROW
                ? borrow(goodsId, hop.bucket(), n, in)
                : transferIn(goodsId, hop.bucket(), n, in);
    }

    private Step borrow(long goodsId, int bucket, JsonNode n, Decider.Input in) {
        int buckets = n.path("buckets").asInt();
        int borrower = n.path("borrower").asInt();
        long want = n.path("want").asLong();
        String opId = n.path("opId").asText();
        String sale = n.path("sale").asText();
        GoodsFold fold = folds.get(goodsId);
        if (borrower == bucket) { // back round: every bucket was empty as it passed
            if (fold != null && opId.equals(fold.borrowing)) {
                fold.borrowing = null;
                fold.emptyPassAt = Math.max(1, in.timestamp());
                folds.put(goodsId, fold);
            }
            return Step.decided(Decision.NOTHING);
        }
        if (folds.decision(goodsId, FoldStore.operationKey(opId)) != null) return Step.decided(Decision.NOTHING);
        Hop onward = Hop.borrow(goodsId, sale, buckets, borrower, (bucket + 1) % buckets, want, opId);
        // only a bucket of the borrower's sale gives (units never cross from one sale to another), and not while its
        // own purchases wait for a borrow of its own (two buckets would pass the same units to and fro)
        if (fold == null) return Step.sending(onward);
        if (!fold.bucketed() || !sale.equals(fold.saleOpId) || fold.borrowing != null) {
            keep(goodsId, opId, new LuaResult("PASSED", "", fold.stock, LuaResult.Status.NEW), in); // a copy: nothing
            return Step.sending(onward);
        }
        KeysAt at = KeysAt.unchained(in.offset());
        return new Step.Call(scripts.transferCall(goodsId, false, want, at).inBucket(bucket), r -> {
            keep(goodsId, opId, r, in);
            long k = "MOVED".equals(r.code()) ? r.detailAsLong() : 0;
            if (k <= 0) return Decision.hops(List.of(onward));
            GoodsFold f = folds.get(goodsId);
            f.stock -= k;
            folds.put(goodsId, f);
            LedgerEntry out = transferEntry(
                    goodsId,
                    BucketOf.transferOpId(opId, LedgerType.TRANSFERRED_OUT),
                    LedgerType.TRANSFERRED_OUT,
                    k,
                    r.stockAfter());
            return BucketLedger.tagged(folds, Decision.of(null, out), goodsId, in.partition(), borrower)
                    .sending(List.of(Hop.transferIn(goodsId, sale, bucket, borrower, k, opId)));
        });
    }

    private Step transferIn(long goodsId, int bucket, JsonNode n, Decider.Input in) {
        int from = n.path("from").asInt();
        long units = n.path("units").asLong();
        String borrowOpId = n.path("borrowOpId").asText();
        String opId = BucketOf.transferOpId(borrowOpId, LedgerType.TRANSFERRED_IN);
        if (folds.decision(goodsId, FoldStore.operationKey(opId)) != null) return Step.decided(Decision.NOTHING);
        GoodsFold now = folds.get(goodsId);
        if (now == null || !n.path("sale").asText().equals(now.saleOpId)) {
            // the bucket was opened again while the units were on their way: the new sale's open set its units, as
            // an open sets the units of a goods whatever the sale before it left, so these are absorbed (in no bucket,
            // in no entry — as the giver's own re-open absorbed what it had left)
            keep(goodsId, opId, new LuaResult("ABSORBED", Long.toString(units), 0, LuaResult.Status.NEW), in);
            return Step.decided(Decision.NOTHING);
        }
        KeysAt at = KeysAt.unchained(in.offset());
        return new Step.Call(scripts.transferCall(goodsId, true, units, at).inBucket(bucket), r -> {
            keep(goodsId, opId, r, in);
            GoodsFold f = folds.get(goodsId);
            if (f == null) f = new GoodsFold();
            f.stock += units; // the units moved are in the ledger whatever Redis had: they land in the fold
            if (borrowOpId.equals(f.borrowing)) f.borrowing = null;
            f.emptyPassAt = 0;
            folds.put(goodsId, f);
            LedgerEntry entry = transferEntry(goodsId, opId, LedgerType.TRANSFERRED_IN, units, f.stock);
            return BucketLedger.tagged(folds, Decision.of(null, entry), goodsId, in.partition(), from);
        });
    }

    private LedgerEntry transferEntry(long goodsId, String opId, LedgerType type, long units, long stockAfter) {
        return LedgerEntry.of(opId, goodsId, type, units, null, null, null, stockAfter, clock.instant());
    }

    private void keep(long goodsId, String opId, LuaResult r, Decider.Input in) {
        folds.decide(
                goodsId,
                FoldStore.operationKey(opId),
                StoredDecision.of(r, in.position(), "", clock.millis()).encode());
    }
}
