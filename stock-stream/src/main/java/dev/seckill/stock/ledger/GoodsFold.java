package dev.seckill.stock.ledger;

/**
 * What the ledger says about one goods' sale, kept by stock-stream in a changelogged state store (so it commits with
 * the outputs, exactly once): the window, the units opened and left. Who holds what is kept beside it, one entry
 * per buyer ({@link Holding}), so a purchase writes two small records rather than the whole buyer list.
 */
public final class GoodsFold {
    /**
     * A live buyer's holding; {@code paid} once a {@code pay} marked it (a restore then marks it again in Redis, so no
     * release can take a paid unit back). Holdings stored before {@code paid} existed read as unpaid.
     */
    public record Holding(long quantity, String requestId, long stockAfter, boolean paid) {
        public Holding(long quantity, String requestId, long stockAfter) {
            this(quantity, requestId, stockAfter, false);
        }

        public Holding markedPaid() {
            return new Holding(quantity, requestId, stockAfter, true);
        }
    }

    public long startAt;
    public long endAt;
    public int perUserLimit;
    public String status = "open";
    public long opened;
    public long stock;
    /** When the sale's Redis keys expire (epoch ms, {@code KeyLifetime}); 0 in folds written before it was kept. */
    public long expireAt;
    /**
     * The marker the goods' Redis keys must carry for this fold to describe them: the offset of the last command
     * applied to them ({@code at} in the sale hash), "" once they are known gone; null in folds written before it was
     * kept (then the keys are rebuilt at the goods' next command). Every stock script checks it before it decides.
     */
    public String at;
    /** The offset of the command that opened the current sale (-1 when unknown): ids decided before it are an earlier sale's. */
    public long openOffset = -1;
    /**
     * When the keys of the sale before the current one expired (epoch ms; 0 when there was none, or its decisions have
     * been retired): the decisions made before {@link #openOffset} are forgotten a week after it.
     */
    public long previousExpireAt;

    /**
     * How many buckets the goods' current sale is split across (docs/decisions.md, "Stock buckets"); 0 or 1: one, the
     * sale decided in this partition alone.
     */
    public int buckets;
    /** Which of them this partition decides: 0 at the goods' home, b in the b-th partition after it. */
    public int bucket;
    /** The opId of the open of the bucket's current sale: units move only between buckets of one sale. */
    public String saleOpId;
    /** The opId of this bucket's borrow going round the buckets, or null. */
    public String borrowing;
    /** The record time of the last borrow that came back having found every bucket empty; 0 since units came. */
    public long emptyPassAt;
    /**
     * At the home of a drawn goods split into buckets: the buyer the draw's release last gave units to (their further
     * requests are DUPLICATE in their bucket, so no units go with them); 0 for none.
     */
    public long drawGiven;
    /**
     * Over how many buckets the current sale claims its purchases' requestIds (docs/decisions.md, "Stock buckets"): a
     * requestId is claimed in bucket {@code hash(goods:requestId) mod claimBuckets}; 0 or 1: every one at home (a drawn
     * sale, a sale whose goods remembers decisions of a sale claimed otherwise, a fold from before claims spread).
     */
    public int claimBuckets;
    /** In a bucket that refused its share of the goods' latest open: that open's opId (null otherwise). */
    public String refusedSale;

    /** Whether the current sale is split into buckets. */
    public boolean bucketed() {
        return buckets > 1;
    }
}
