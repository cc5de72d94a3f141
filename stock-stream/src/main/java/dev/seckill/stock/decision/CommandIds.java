package dev.seckill.stock.decision;

import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.stock.ledger.FoldStore;

/** What a command record is known by: its id among its goods' decisions, and whether its key is its goods. */
final class CommandIds {
    private CommandIds() {}

    /** A command's id among its goods' decisions (its requestId or opId), or null for a record that has none. */
    static String idOf(ParsedCommand parsed) {
        if (parsed instanceof ParsedCommand.InvalidPurchase ip)
            return FoldStore.decisionKey(ip.goodsId(), FoldStore.purchaseKey(ip.requestId()));
        if (!(parsed instanceof ParsedCommand.Valid v)) return null;
        if (v.command() instanceof Purchase p)
            return FoldStore.decisionKey(p.goodsId(), FoldStore.purchaseKey(p.requestId()));
        return FoldStore.decisionKey(
                v.command().goodsId(), FoldStore.operationKey(v.command().idempotencyId()));
    }

    static boolean keyMatches(String key, long goodsId) {
        return Long.toString(goodsId).equals(key);
    }

    static Decision keyMismatch(String key, long goodsId) {
        return Decision.dlq(
                "record key '" + key + "' is not the goodsId " + goodsId + " (commands are keyed by goodsId)");
    }
}
