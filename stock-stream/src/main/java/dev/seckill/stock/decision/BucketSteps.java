package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.bucket.BucketPlan;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.bucket.HopOut;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The steps of a bucketed goods' commands (docs/decisions.md, "Stock buckets"; docs/invariants.md, "Stock buckets").
 * At the goods' home (bucket 0) a client's command is decided there or routed: an open decides bucket 0's share and
 * sends the others theirs; a purchase is claimed (its requestId keeps one meaning) and sent to its buyer's bucket;
 * a release or pay goes to its buyer's bucket, a close to every bucket. In bucket b a routed command is decided on the
 * bucket's own keys and fold. A purchase its bucket's units cannot cover is parked — sent back to the end of the
 * bucket's own order — while a borrow goes round the other buckets; the units a borrow finds move as two ledger
 * entries, each decided in its bucket's order. SOLD_OUT is answered once a borrow came back having found every bucket
 * empty. Every ledger entry of a bucketed goods names its bucket (a v2 entry).
 */
final class BucketSteps {
    private final BucketTerms terms;
    private final StockScripts scripts;
    private final Clock clock;
    private final FoldStore folds;
    private final PurchaseDecisions purchases;
    private final SaleOperations operations;
    private final BucketTransfers transfers;
    private final DrawnBuckets drawn;
    private final BucketClaims claims;

    BucketSteps(
            BucketTerms terms,
            StockScripts scripts,
            Clock clock,
            FoldStore folds,
            PurchaseDecisions purchases,
            SaleOperations operations) {
        this.terms = terms;
        this.scripts = scripts;
        this.clock = clock;
        this.folds = folds;
        this.purchases = purchases;
        this.operations = operations;
        this.transfers = new BucketTransfers(terms, scripts, clock, folds);
        this.drawn = new DrawnBuckets(scripts, clock, folds, purchases);
        this.claims = new BucketClaims(terms, clock, folds, purchases, this::inBucket);
    }

    /** The step of a bucketed goods' command, a hop, or an open with buckets; null for anything else (decided as ever). */
    Step step(ParsedCommand parsed, Decider.Input in) {
        Hop hop = in.hop();
        if (hop == null) return fromClient(parsed, in);
        if (terms.partitions() > 0
                && (HopOut.home(in.key(), terms.partitions()) + hop.bucket()) % terms.partitions() != in.partition())
            return Step.decided(Decision.dlq("a hop for bucket " + hop.bucket() + " of goods " + in.key()
                    + " in partition " + in.partition() + ", not its bucket's (copied, or the partitions changed)"));
        if (hop.kind() == Hop.Kind.CLAIM) {
            Step claimed = claims.claimHop(parsed, hop, in);
            return claimed != null ? claimed : fromClient(parsed, in); // the home judges it as it judges a client's
        }
        if (hop.kind() != Hop.Kind.COMMAND) return transfers.moved(hop, in);
        if (!(parsed instanceof ParsedCommand.Valid v)
                || !Long.toString(v.command().goodsId()).equals(in.key()))
            return Step.decided(Decision.dlq("a hop that is not a command of its key's goods"));
        if (v.command() instanceof Purchase p && hop.sale() != null)
            return claims.fromClaim(p, hop.sale(), hop.bucket(), in);
        // the decider runs a restore alone, then restored(...)
        return v.command() instanceof Restore ? null : inBucket(v.command(), hop.bucket(), in, true);
    }

    /** A client's command: null (decided as ever) unless its goods is split into buckets or it opens them. */
    private Step fromClient(ParsedCommand parsed, Decider.Input in) {
        if (!(parsed instanceof ParsedCommand.Valid v) || v.command() instanceof Restore) return null;
        Command c = v.command();
        if (!Long.toString(c.goodsId()).equals(in.key())) return null; // the decider refuses the key
        GoodsFold fold = folds.get(c.goodsId());
        boolean bucketedHere = fold != null && fold.bucketed();
        boolean home = terms.partitions() == 0 || HopOut.home(in.key(), terms.partitions()) == in.partition();
        // a purchase sent straight to a bucket (a one-bucket sale decided here as ever: a producer's own partitioning)
        if (!home && c instanceof Purchase p && terms.seal().keyed() && (fold == null || bucketedHere))
            return claims.straightToBucket(p, fold, in);
        if (!bucketedHere && !(c instanceof OpenSale open && open.bucketed())) return null; // a one-bucket sale's
        if (!home)
            return Step.decided(Decision.dlq("goods " + c.goodsId() + " is split into buckets (or opened so): its"
                    + " commands go keyed by the goods id to its home partition, not to partition " + in.partition()));
        if (c instanceof OpenSale o && (o.bucketed() || bucketedHere && fold.bucket == 0)) return open(o, fold, in);
        if (!bucketedHere) return null;
        if (fold.bucket != 0)
            return Step.decided(Decision.dlq("goods " + c.goodsId() + " is split into buckets and bucket "
                    + fold.bucket + " is decided in this partition from the stream's own hops: send its commands"
                    + " keyed by the goods id, to its home partition"));
        return atHome(c, fold, in);
    }

    /** A client's command of a bucketed goods at its home: decided in bucket 0, or sent to its bucket. */
    private Step atHome(Command c, GoodsFold fold, Decider.Input in) {
        BucketPlan plan = terms.plan(c.goodsId(), fold.buckets);
        if (c instanceof Purchase p) {
            int b = plan.bucketOf(p.userId());
            // the draw passes its entries on at home: the units go out from here in its order, nothing waits on a
            // borrow
            if (in.drawEntry())
                return b == 0 ? inBucket(p, 0, in, false) : drawn.allotted(p, b, in, () -> claims.claimed(p, b, in));
            return claims.atHome(p, fold, in);
        }
        if (c instanceof Release r && plan.bucketOf(r.userId()) != 0)
            return Step.sending(new Hop(Hop.Kind.COMMAND, plan.bucketOf(r.userId()), in.raw()));
        if (c instanceof Pay p && plan.bucketOf(p.userId()) != 0)
            return Step.sending(new Hop(Hop.Kind.COMMAND, plan.bucketOf(p.userId()), in.raw()));
        Step here = inBucket(c, 0, in, true);
        // every bucket closes, whatever bucket 0 found (a retried close is a retry in every bucket too)
        return c instanceof CloseSale ? withHops(here, everyOther(fold.buckets, in.raw()), true) : here;
    }

    /** A decided restore of a bucketed goods: its entry names its bucket; at home, every other bucket restores too. */
    Decision restored(Restore r, Decider.Input in, Decision decided) {
        GoodsFold fold = folds.get(r.goodsId());
        if (fold == null || !fold.bucketed()) return decided;
        Decision tagged = BucketLedger.tagged(folds, decided, r.goodsId(), in.partition(), null);
        return in.hop() == null && fold.bucket == 0 && !decided.toDlq()
                ? tagged.sending(everyOther(fold.buckets, in.raw()))
                : tagged;
    }

    /** A client's open at the goods' home: bucket 0's share decided here, the others' sent once it opened. */
    private Step open(OpenSale asked, GoodsFold fold, Decider.Input in) {
        // a sale never has fewer buckets than the one before: each bucket that sold needs an open to end its orders
        int buckets = Math.max(asked.buckets(), fold != null && fold.bucketed() ? fold.buckets : 1);
        String refused = terms.refusal(buckets);
        if (refused != null) return Step.decided(Decision.dlq("open_sale refused: " + refused));
        OpenSale o = new OpenSale(
                asked.goodsId(),
                asked.stock(),
                asked.startAt(),
                asked.endAt(),
                asked.perUserLimit(),
                asked.opId(),
                asked.force(),
                asked.fairness(),
                asked.windowMs(),
                buckets);
        // a drawn sale is drawn at home alone: the other buckets open first-come and get their winners' units from it
        byte[] elsewhere = CommandCodec.encode(o.fairness().drawn() ? DrawnBuckets.elsewhere(o) : o);
        String drawnRefused = BucketClaims.drawnRefusal(o, fold, in.timestamp());
        if (drawnRefused != null) return Step.decided(Decision.dlq("open_sale refused: " + drawnRefused));
        int layout = BucketClaims.layout(o, fold, buckets, in.timestamp());
        List<Hop> shares = new ArrayList<>(buckets - 1);
        for (int b = 1; b < buckets; b++) shares.add(Hop.share(b, elsewhere, layout));
        return withHops(share(o, 0, in, layout), shares, false);
    }

    /**
     * Bucket {@code bucket}'s share of an open: the sale on its keys with its share of the units, claiming requestIds
     * over {@code claims} buckets.
     */
    private Step share(OpenSale o, int bucket, Decider.Input in, int claims) {
        GoodsFold fold = folds.get(o.goodsId());
        if (fold == null) fold = new GoodsFold();
        int wasBuckets = fold.buckets;
        int wasBucket = fold.bucket;
        // the goods' bucket in this partition, known before the call: a rebuild of its keys rebuilds this bucket's
        fold.buckets = o.buckets();
        fold.bucket = bucket;
        folds.put(o.goodsId(), fold);
        long units = o.fairness().drawn()
                ? DrawnBuckets.share(o.stock(), bucket)
                : terms.plan(o.goodsId(), o.buckets()).shares(o.stock())[bucket];
        Step step = operations.step(o.withStock(units), in);
        return mapped(step, bucket, d -> {
            GoodsFold now = folds.get(o.goodsId());
            boolean opened = d.hasLedger() && d.ledger().type() == LedgerType.OPENED;
            now.buckets = opened ? o.buckets() : wasBuckets; // a refused open leaves the sale before it as it was
            now.bucket = opened ? bucket : wasBucket;
            if (opened) {
                now.saleOpId = o.opId();
                now.drawGiven = 0;
                now.claimBuckets = claims;
            }
            // a bucket that refused its share stays in the sale before: a purchase claimed in this one is not sold here
            now.refusedSale = opened ? null : o.opId();
            folds.put(o.goodsId(), now);
            return BucketLedger.tagged(folds, d, o.goodsId(), in.partition(), null);
        });
    }

    /**
     * A command decided in bucket {@code bucket} (here its fold and keys); a purchase its units cannot cover is parked
     * while a borrow goes round when {@code mayPark}, else SOLD_OUT.
     */
    private Step inBucket(Command c, int bucket, Decider.Input in, boolean mayPark) {
        GoodsFold fold = folds.get(c.goodsId());
        // a share without a claim layout (sent before claims spread) claims at home
        if (c instanceof OpenSale o)
            return share(o, bucket, in, in.hop() != null ? Math.max(1, in.hop().claimBuckets()) : 1);
        if (fold != null && fold.bucketed() && fold.bucket != bucket)
            return Step.decided(Decision.dlq(
                    "a hop for bucket " + bucket + " of goods " + c.goodsId() + " reached the partition of its bucket "
                            + fold.bucket + " (the commands topic's partitions changed?)"));
        Step step = c instanceof Purchase p
                ? purchases.step(p, in, answer -> mayPark ? transfers.parked(p, bucket, in) : null)
                : operations.step(c, in);
        return mapped(step, bucket, d -> BucketLedger.tagged(folds, d, c.goodsId(), in.partition(), null));
    }

    /** The step with its calls on bucket {@code bucket}'s keys and its decision passed through {@code then}. */
    private static Step mapped(Step step, int bucket, Function<Decision, Decision> then) {
        if (step instanceof Step.Call c)
            return new Step.Call(c.call().inBucket(bucket), c.complete().andThen(then));
        return Step.decided(then.apply(((Step.Decided) step).decision()));
    }

    /**
     * The step, sending {@code hops} once it decided something — not a DLQ record, and not nothing unless {@code
     * evenNothing}.
     */
    private static Step withHops(Step step, List<Hop> hops, boolean evenNothing) {
        Function<Decision, Decision> then =
                d -> d.toDlq() || !evenNothing && d instanceof Decision.Nothing ? d : d.sending(hops);
        if (step instanceof Step.Call c)
            return new Step.Call(c.call(), c.complete().andThen(then));
        return Step.decided(then.apply(((Step.Decided) step).decision()));
    }

    /** {@code value} for every bucket but home's. */
    private static List<Hop> everyOther(int buckets, byte[] value) {
        List<Hop> hops = new ArrayList<>(buckets - 1);
        for (int b = 1; b < buckets; b++) hops.add(new Hop(Hop.Kind.COMMAND, b, value));
        return hops;
    }
}
