package dev.seckill.stock.decision;

import dev.seckill.contracts.command.Purchase;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The in-memory sold-out short-circuit of one task. Once a goods sells out (a Lua answer says SOLD_OUT, or SUCCESS
 * with nothing left), the gate copies its sale from the ledger fold ({@link SaleSnapshot}: the truth, whatever Redis
 * holds) and from then on answers the purchases that the purchase script could only refuse — before the window opens,
 * over the per-user limit, a live buyer, not enough stock — exactly as the script would against the fold, without a
 * Redis call. Everything else still goes to Lua: an invalid purchase, a purchase after the window's end (the sale's
 * keys expire a day later and the script then says {@code no_sale}), and one that could be served. Ids already decided
 * never reach it (their decision is kept in the fold).
 *
 * <p>It is never wrong after a release because every command that can change a goods' stock, buyers or window goes
 * through the same partition: a command of the goods on its way to Lua in a batch stops short-circuiting that goods
 * until the batch's answers are in ({@link #unsettle}), a release's answer updates the stock and buyers, an open, close
 * or restore forgets the goods. The gate itself is not durable: after a restart it is empty and re-arms at the next
 * sell-out, from the fold restored with the task.
 */
public final class SoldOutGate {
    /** What the gate knows of one sold-out goods. */
    private static final class Goods {
        final long startAt;
        final long endAt;
        final int perUserLimit;
        final Set<Long> buyers;
        long stock;
        boolean unsettled;

        Goods(SaleSnapshot s) {
            startAt = s.startAt();
            endAt = s.endAt();
            perUserLimit = s.perUserLimit();
            buyers = new HashSet<>(s.buyers());
            stock = s.stock();
        }
    }

    private final Map<Long, Goods> goods = new HashMap<>();
    private final Set<Long> toArm = new HashSet<>();

    /**
     * The purchase script's answer for {@code p} when the gate can give it (status NEW), or null: ask Lua. The caller
     * has already looked the id up among the goods' decisions.
     */
    public LuaResult judge(Purchase p) {
        Goods g = goods.get(p.goodsId());
        if (g == null || g.unsettled) return null;
        long at = p.acceptedAt().toEpochMilli();
        if (at >= g.endAt) return null;
        if (at < g.startAt) return answer("REJECTED", "not_started", g.stock);
        if (p.quantity() > g.perUserLimit) return answer("REJECTED", "over_limit", g.stock);
        if (g.buyers.contains(p.userId())) return answer("DUPLICATE", "", g.stock);
        if (g.stock < p.quantity()) return answer("SOLD_OUT", "", g.stock);
        return null;
    }

    /**
     * A command for this goods is on its way to Lua in the current batch: until the batch's answers are in, its
     * stock, buyers or window may differ from what the gate knows.
     */
    public void unsettle(long goodsId) {
        Goods g = goods.get(goodsId);
        if (g != null) g.unsettled = true;
    }

    /** A purchase answered by Lua. */
    public void purchased(Purchase p, LuaResult r) {
        Goods g = goods.get(p.goodsId());
        if (g != null) {
            if ("SUCCESS".equals(r.code())) g.buyers.add(p.userId());
            g.stock = r.stockAfter();
        } else if ("SOLD_OUT".equals(r.code()) || ("SUCCESS".equals(r.code()) && r.stockAfter() == 0)) {
            toArm.add(p.goodsId());
        }
    }

    /** A release answered by Lua. */
    public void released(long goodsId, long userId, LuaResult r) {
        Goods g = goods.get(goodsId);
        if (g == null || !"RELEASED".equals(r.code())) return;
        g.buyers.remove(userId);
        g.stock = r.stockAfter();
    }

    /** The goods the gate answers now (sold out): no Lua call meets their keys while it does. */
    public Set<Long> armed() {
        return Set.copyOf(goods.keySet());
    }

    /** An open, close or restore of this goods: what the gate knew no longer holds. */
    public void forget(long goodsId) {
        goods.remove(goodsId);
        toArm.remove(goodsId);
    }

    /**
     * After a batch's Lua answers are in: everything known again, and goods that sold out in it are armed from their
     * fold (which now holds exactly the batch's effects).
     */
    public void settle(SnapshotSource source) {
        for (Goods g : goods.values()) g.unsettled = false;
        for (Long goodsId : toArm) {
            SaleSnapshot s = source.snapshot(goodsId);
            if (s != null && !s.closed()) goods.put(goodsId, new Goods(s));
        }
        toArm.clear();
    }

    /** A goods' sale as its fold says; null when it has none. */
    @FunctionalInterface
    public interface SnapshotSource {
        SaleSnapshot snapshot(long goodsId);
    }

    private static LuaResult answer(String code, String detail, long stock) {
        return new LuaResult(code, detail, stock, LuaResult.Status.NEW);
    }
}
