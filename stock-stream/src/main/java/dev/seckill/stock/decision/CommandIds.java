package dev.seckill.stock.decision;

import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.stock.ledger.FoldStore;
import java.util.Set;

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

    /**
     * Whether the batch holds one of the record's ids already: its requestId or opId, or — a draw's entry — its
     * buyer's (a buyer's requests come together in the draw's order, each judged after the one before).
     */
    static boolean repeated(Set<String> batch, ParsedCommand parsed, Decider.Input in) {
        String id = idOf(parsed);
        String buyer = in.drawEntry() ? buyerOf(parsed) : null;
        return id != null && batch.contains(id) || buyer != null && batch.contains(buyer);
    }

    /** Adds the record's ids ({@link #repeated}) to the batch's. */
    static void add(Set<String> batch, ParsedCommand parsed, Decider.Input in) {
        String id = idOf(parsed);
        if (id != null) batch.add(id);
        String buyer = in.drawEntry() ? buyerOf(parsed) : null;
        if (buyer != null) batch.add(buyer);
    }

    private static String buyerOf(ParsedCommand parsed) {
        return parsed instanceof ParsedCommand.Valid v && v.command() instanceof Purchase p
                ? "buyer:" + p.goodsId() + ":" + p.userId()
                : null;
    }

    static boolean keyMatches(String key, long goodsId) {
        return Long.toString(goodsId).equals(key);
    }

    static Decision keyMismatch(String key, long goodsId) {
        return Decision.dlq(
                "record key '" + key + "' is not the goodsId " + goodsId + " (commands are keyed by goodsId)");
    }
}
