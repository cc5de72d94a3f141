package dev.seckill.reconcile;

/**
 * One goods seen from every source, side by side. Null means the source has nothing for it.
 * The verdict is OK when every source agrees with the ledger fold and nothing is oversold; ENDED when the sale's keys
 * have reached the end of their lifetime ({@code keysRetired}: the ledger's keysExpireAt has passed) and Redis holds
 * none of them — the sale is over and settled, and Redis has nothing left to agree or disagree with.
 */
public record GoodsDrift(
        long goodsId,
        long opened,
        long deducted,
        long released,
        long ledgerStock,
        long ledgerLiveBuyers,
        long ledgerLiveUnits,
        Long redisStock,
        Long redisBuyers,
        Long dbStock,
        Long dbLiveOrders,
        Long dbLiveUnits,
        Long dbLedgerStock,
        boolean keysRetired,
        long paidReleased) {

    /** Redis has no keys of this goods because its sale's lifetime is over: its end, not drift. */
    public boolean ended() {
        return keysRetired && redisStock == null && redisBuyers == null;
    }

    /** Redis holds no key of a sale the ledger says is open and live: wiped (a restart without persistence, FLUSHALL). */
    public boolean wiped() {
        return opened > 0 && !keysRetired && redisStock == null && redisBuyers == null;
    }

    public boolean oversold() {
        return deducted - released > opened || (redisStock != null && redisStock < 0);
    }

    public boolean redisAgrees() {
        if (ended()) return true;
        return redisStock != null
                && redisStock == ledgerStock
                && redisBuyers != null
                && redisBuyers == ledgerLiveBuyers;
    }

    public boolean dbAgrees() {
        return dbStock != null
                && dbStock == ledgerStock
                && dbLedgerStock != null
                && dbLedgerStock == ledgerStock
                && dbLiveUnits != null
                && dbLiveUnits == ledgerLiveUnits
                && dbLiveOrders != null
                && dbLiveOrders == ledgerLiveBuyers;
    }

    public String verdict() {
        if (oversold()) return "OVERSOLD";
        if (paidReleased > 0)
            return "PAID_RELEASED"; // order-writer's order_anomaly: a release of a paid order (invariant 7)
        if (!redisAgrees() && !dbAgrees()) return "DRIFT redis+db";
        if (!redisAgrees()) return "DRIFT redis";
        if (!dbAgrees()) return "DRIFT db";
        return ended() ? "ENDED" : "OK";
    }
}
