package dev.seckill.infra.harness.audit;

/**
 * A strategy's row of figures, made from its sale's {@link SaleFacts} (its database after the orders drained, next to
 * what its buyers were told) by the same counts as {@link SaleChecks}: units sold (live orders), stock left in the DB,
 * oversold units (orders beyond the stock), duplicate buyers (orders beyond one per buyer, plus SUCCESS answers beyond
 * one per buyer), buyers told SUCCESS, confirmed sales lost (a buyer answered SUCCESS with no order), and false
 * duplicates (a buyer told "already bought" who holds no order: a retry of a purchase whose order was lost).
 */
public record StrategyAudit(
        long sold,
        long stockLeft,
        long oversold,
        long duplicateBuyers,
        long confirmed,
        long lost,
        long falseDuplicates) {

    public static StrategyAudit of(SaleFacts f) {
        long sold = f.liveOrders().size();
        return new StrategyAudit(
                sold,
                f.dbStock() == null ? 0 : f.dbStock(),
                Math.max(0, sold - f.opened()),
                sold - SaleCounts.liveHolders(f).size() + SaleCounts.toldSuccessTwice(f),
                SaleCounts.toldSuccess(f).size(),
                SaleCounts.lost(f),
                SaleCounts.falseDuplicates(f));
    }
}
