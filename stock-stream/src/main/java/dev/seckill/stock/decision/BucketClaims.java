package dev.seckill.stock.decision;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandPartitions;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.stock.SaleRetirement;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;

/**
 * Where a bucketed goods' purchase is claimed and how it reaches its buyer's bucket (docs/invariants.md, "Stock
 * buckets": one requestId, one claim, wherever it was sent). A sale claims each requestId in the bucket {@code
 * hash(goods:requestId) mod claimBuckets} ({@link CommandPartitions#claimBucket}; 1: all at home), fixed at its open
 * ({@link #layout}); the claim stores (buyer, quantity) under the id and sends the purchase, naming its sale, to the
 * buyer's bucket, which decides it only in that sale.
 */
final class BucketClaims {
    static final String ROUTED = "ROUTED";

    /** How a claimed purchase is decided in its buyer's bucket (that bucket's own step). */
    interface InBucket {
        Step decide(Command c, int bucket, Decider.Input in, boolean mayPark);
    }

    private final BucketTerms terms;
    private final Clock clock;
    private final FoldStore folds;
    private final PurchaseDecisions purchases;
    private final InBucket inBucket;

    BucketClaims(BucketTerms terms, Clock clock, FoldStore folds, PurchaseDecisions purchases, InBucket inBucket) {
        this.terms = terms;
        this.clock = clock;
        this.folds = folds;
        this.purchases = purchases;
        this.inBucket = inBucket;
    }

    /**
     * Over how many buckets a sale opened now claims requestIds: all of them, unless the goods remembers decisions of an
     * earlier sale (kept a week past its keys, by the open's record time), which keep the layout they were claimed in —
     * a requestId of an earlier sale is found where it was claimed, and refused in this one — or it is drawn (its
     * window is ranked at home, where its entries are claimed).
     */
    static int layout(OpenSale o, GoodsFold before, int buckets, long recordTime) {
        if (o.fairness().drawn()) return 1;
        return remembered(before, recordTime) ? Math.max(1, before.claimBuckets) : buckets;
    }

    /**
     * Why a drawn sale cannot open now: its entries are claimed at home, while decisions of an earlier sale claimed
     * over several buckets are remembered (a requestId of that sale would not be found at home, and would win units
     * again); null when it can.
     */
    static String drawnRefusal(OpenSale o, GoodsFold before, long recordTime) {
        if (!o.fairness().drawn() || !remembered(before, recordTime) || before.claimBuckets <= 1) return null;
        return "a drawn sale of goods " + o.goodsId() + " claims every requestId at home, while the decisions of its"
                + " earlier sale, claimed over " + before.claimBuckets
                + " buckets, are kept (until a week after its keys"
                + " expire): open it first-come, or after then";
    }

    private static boolean remembered(GoodsFold before, long recordTime) {
        return before != null
                && before.openOffset >= 0
                && (before.expireAt <= 0 || recordTime <= before.expireAt + SaleRetirement.DECISIONS_KEPT.toMillis());
    }

    /** The bucket the sale of {@code fold} claims the purchase's requestId in (0: the home). */
    static int claimBucket(GoodsFold fold, Purchase p) {
        return fold.claimBuckets <= 1
                ? 0
                : CommandPartitions.claimBucket(p.goodsId(), p.requestId(), fold.claimBuckets);
    }

    /** A client's purchase at the goods' home (not a draw's entry): claimed here, or sent to the bucket that claims it. */
    Step atHome(Purchase p, GoodsFold fold, Decider.Input in) {
        int claim = claimBucket(fold, p);
        return claim != 0 ? Step.sending(Hop.claim(claim, in.raw(), fold.saleOpId)) : claimedHere(p, fold, in);
    }

    /**
     * A client's purchase that reached a partition other than its goods' home (a producer that routes by {@link
     * CommandPartitions#claimPartition}): claimed here when this is the bucket of a sale that claims its requestId, else
     * sent to the home, which judges where it is claimed.
     */
    Step straightToBucket(Purchase p, GoodsFold fold, Decider.Input in) {
        if (fold != null && fold.bucketed() && fold.bucket != 0 && claimBucket(fold, p) == fold.bucket)
            return claimedHere(p, fold, in);
        return Step.sending(new Hop(Hop.Kind.CLAIM, 0, in.raw()));
    }

    /**
     * A client's purchase the stream sent on: to the bucket that claims its requestId, or — null here — to the home,
     * from a bucket that could not judge where it is claimed (the home judges it as a client's).
     */
    Step claimHop(ParsedCommand parsed, Hop hop, Decider.Input in) {
        if (!(parsed instanceof ParsedCommand.Valid v)
                || !(v.command() instanceof Purchase p)
                || !Long.toString(p.goodsId()).equals(in.key()))
            return Step.decided(Decision.dlq("a claim hop that is not a purchase of its key's goods"));
        if (hop.bucket() == 0) return null;
        int bucket = hop.bucket();
        GoodsFold fold = folds.get(p.goodsId());
        if (fold == null || !fold.bucketed() || fold.bucket != bucket)
            return Step.decided(Decision.dlq("a claim for bucket " + bucket + " of goods " + p.goodsId()
                    + " reached a partition that is not that bucket of its sale (its share of a re-open refused?)"));
        // the home's sale, which this bucket opened before any claim the home sent after it — unless it refused it
        if (hop.sale() != null && !hop.sale().equals(fold.saleOpId))
            return Step.decided(purchases.answered(
                    p, new LuaResult("REJECTED", "no_sale", Math.max(0, fold.stock), LuaResult.Status.NEW), in));
        return claimedHere(p, fold, in);
    }

    /**
     * A purchase claimed in sale {@code sale}, in its buyer's bucket: decided here in that sale. Claimed in another — it
     * crossed a re-open of the goods — it is sent home to be claimed in the sale the goods has now, unless this bucket
     * refused its share of that sale (then it cannot be sold here: REJECTED no_sale). A requestId this bucket has a
     * decision for is answered by it, whatever the sale.
     */
    Step fromClaim(Purchase p, String sale, int bucket, Decider.Input in) {
        GoodsFold fold = folds.get(p.goodsId());
        boolean same = fold != null && sale.equals(fold.saleOpId);
        if (same || folds.decision(p.goodsId(), FoldStore.purchaseKey(p.requestId())) != null)
            return inBucket.decide(p, bucket, in, true);
        if (fold != null && sale.equals(fold.refusedSale))
            return Step.decided(purchases.answered(
                    p, new LuaResult("REJECTED", "no_sale", Math.max(0, fold.stock), LuaResult.Status.NEW), in));
        return Step.sending(new Hop(Hop.Kind.CLAIM, 0, in.raw()));
    }

    /** A purchase whose requestId this bucket claims: decided here when its buyer's bucket is this one, else sent on. */
    private Step claimedHere(Purchase p, GoodsFold fold, Decider.Input in) {
        int b = terms.plan(p.goodsId(), fold.buckets).bucketOf(p.userId());
        return b == fold.bucket ? inBucket.decide(p, b, in, true) : claimed(p, b, in);
    }

    /**
     * A purchase of another bucket's buyer: its requestId claimed here (a retry of the same purchase is sent again; the
     * id reused for another purchase is refused as any reuse is) and sent to the buyer's bucket, naming this sale.
     */
    Step claimed(Purchase p, int bucket, Decider.Input in) {
        String payload = StoredDecision.purchasePayload(p.userId(), p.quantity());
        String stored = folds.decision(p.goodsId(), FoldStore.purchaseKey(p.requestId()));
        GoodsFold fold = folds.get(p.goodsId());
        Hop hop = Hop.claimed(bucket, in.raw(), fold.saleOpId);
        if (stored == null) {
            folds.decide(
                    p.goodsId(),
                    FoldStore.purchaseKey(p.requestId()),
                    StoredDecision.of(
                                    new LuaResult(ROUTED, Integer.toString(bucket), 0, LuaResult.Status.NEW),
                                    in.position(),
                                    payload,
                                    clock.millis())
                            .encode());
            return Step.sending(hop);
        }
        StoredDecision d = StoredDecision.parse(stored);
        boolean retry =
                ROUTED.equals(d.result()) && ReusedIds.why(p.requestId(), payload, d, fold, in.partition()) == null;
        return retry ? Step.sending(hop) : purchases.step(p, in); // the claim's answer: REJECTED, the id reused
    }
}
