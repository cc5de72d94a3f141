package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The tests' way to call one script alone and wait for its answer — what the stream never does (its calls go through
 * the {@link Decider}, one pipeline per batch): each builds the command's {@link ScriptCall} as the stream would and
 * runs it on its own round trip.
 */
final class BlockingScripts {
    private BlockingScripts() {}

    static LuaResult purchase(StockScripts scripts, Purchase p, KeysAt at) {
        return scripts.call(scripts.purchaseCall(p, at));
    }

    static LuaResult release(StockScripts scripts, Release r, KeysAt at) {
        return scripts.call(scripts.releaseCall(r, at));
    }

    static LuaResult pay(StockScripts scripts, Pay p, KeysAt at) {
        return scripts.call(scripts.payCall(p, at));
    }

    /** Opens a sale whose keys expire by the scripts' lifetime rule, counted from now. */
    static LuaResult openSale(StockScripts scripts, OpenSale o, KeysAt at) {
        return scripts.call(scripts.openSaleCall(
                o, at, scripts.lifetime().expireAt(o.endAt().toEpochMilli())));
    }

    static LuaResult closeSale(StockScripts scripts, CloseSale c, KeysAt at) {
        return scripts.call(scripts.closeSaleCall(c, at));
    }

    /** Whether Redis refused only for now (loading, busy, failing over, out of memory): {@link ScriptRunner}'s rule. */
    static boolean transientRefusal(JedisDataException e) {
        return ScriptRunner.transientRefusal(e);
    }
}
