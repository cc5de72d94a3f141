package dev.seckill.reconcile;

/**
 * One goods seen from every source, side by side. Null means the source has nothing for it.
 * The verdict is OK when every source agrees with the ledger fold and nothing is oversold.
 */
public record GoodsDrift(long goodsId, long opened, long deducted, long released, long ledgerStock, long ledgerLiveBuyers,
                         Long redisStock, Long redisBuyers, Long dbStock, Long dbLiveOrders, Long dbLiveUnits, Long dbLedgerStock) {

    public boolean oversold() { return deducted - released > opened || (redisStock != null && redisStock < 0); }

    public boolean redisAgrees() {
        return redisStock != null && redisStock == ledgerStock && redisBuyers != null && redisBuyers == ledgerLiveBuyers;
    }

    public boolean dbAgrees() {
        return dbStock != null && dbStock == ledgerStock && dbLedgerStock != null && dbLedgerStock == ledgerStock
                && dbLiveUnits != null && dbLiveUnits == deducted - released && dbLiveOrders != null && dbLiveOrders == ledgerLiveBuyers;
    }

    public String verdict() {
        if (oversold()) return "OVERSOLD";
        if (!redisAgrees() && !dbAgrees()) return "DRIFT redis+db";
        if (!redisAgrees()) return "DRIFT redis";
        if (!dbAgrees()) return "DRIFT db";
        return "OK";
    }
}
