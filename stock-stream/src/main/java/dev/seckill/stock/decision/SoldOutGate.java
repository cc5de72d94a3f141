package dev.seckill.stock.decision;

import dev.seckill.contracts.command.Purchase;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The in-memory sold-out short-circuit of one task. Once a goods sells out (a Lua answer says SOLD_OUT, or SUCCESS
 * with nothing left), the gate reads its sale from Redis once ({@link SaleSnapshot}) and from then on answers the
 * purchases that the purchase script could only refuse — before the window opens, over the per-user limit, a live
 * buyer, not enough stock — exactly as the script would, without a Redis call. Everything else still goes to Lua:
 * an id Redis already has a decision for, an invalid purchase, a purchase after the window's end (the sale's keys
 * expire a day later and the script then says {@code no_sale}), and one that could be served.
 *
 * <p>It is never wrong after a release because every command that can change a goods' stock, buyers or window goes
 * through the same partition: a release, open or close seen in a batch stops short-circuiting that goods until the
 * batch's Lua answers are in ({@link #unsettle}), a release's answer updates the stock and buyers, an open, close or
 * restore forgets the goods. The gate itself is not durable: after a restart it is empty and re-arms at the next
 * sell-out; it is not armed while Redis holds decisions of this partition past the batch (a crashed task replaying)
 * because then Redis shows a later state than the record being decided.
 */
public final class SoldOutGate {
    /** What the gate knows of one sold-out goods. */
    private static final class Goods {
        final long startAt;
        final long endAt;
        final int perUserLimit;
        final Set<Long> buyers;
        final Set<String> decided;
        long stock;
        boolean unsettled;

        Goods(SaleSnapshot s) {
            startAt = s.startAt();
            endAt = s.endAt();
            perUserLimit = s.perUserLimit();
            buyers = new HashSet<>(s.buyers());
            decided = new HashSet<>(s.decided());
            stock = s.stock();
        }
    }

    private final Map<Long, Goods> goods = new HashMap<>();
    private final Set<Long> toArm = new HashSet<>();
    /** Goods whose Redis decisions reach past this offset of the task's partition: not armed before it. */
    private final Map<Long, Long> notBefore = new HashMap<>();

    /**
     * The purchase script's answer for {@code p} when the gate can give it (status NEW), or null: ask Lua. The caller
     * has already checked the short-circuit log for this id.
     */
    public LuaResult judge(Purchase p) {
        Goods g = goods.get(p.goodsId());
        if (g == null || g.unsettled || g.decided.contains(p.requestId())) return null;
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
     * stock, buyers or window may differ from what the gate knows. {@code requestId}, when given, is remembered as
     * decided by Lua (a later retry of it must go to Lua, which dedupes it).
     */
    public void unsettle(long goodsId, String requestId) {
        Goods g = goods.get(goodsId);
        if (g == null) return;
        g.unsettled = true;
        if (requestId != null) g.decided.add(requestId);
    }

    /** A purchase answered by Lua. */
    public void purchased(Purchase p, LuaResult r) {
        Goods g = goods.get(p.goodsId());
        if (g != null) {
            g.decided.add(p.requestId());
            if (r.status() == LuaResult.Status.RETRY) return;
            if ("SUCCESS".equals(r.code())) g.buyers.add(p.userId());
            g.stock = r.stockAfter();
        } else if (r.status() != LuaResult.Status.RETRY
                && ("SOLD_OUT".equals(r.code()) || ("SUCCESS".equals(r.code()) && r.stockAfter() == 0))) {
            toArm.add(p.goodsId());
        }
    }

    /** A release answered by Lua. */
    public void released(long goodsId, long userId, LuaResult r) {
        Goods g = goods.get(goodsId);
        if (g == null || r.status() == LuaResult.Status.RETRY || !"RELEASED".equals(r.code())) return;
        g.buyers.remove(userId);
        g.stock = r.stockAfter();
    }

    /** An open, close or restore of this goods: what the gate knew no longer holds. */
    public void forget(long goodsId) {
        goods.remove(goodsId);
        toArm.remove(goodsId);
        notBefore.remove(goodsId);
    }

    /**
     * After a batch's Lua answers are in: everything known again, and goods that sold out in it are armed from a
     * snapshot of Redis (which now holds exactly the batch's effects). A snapshot that fails leaves the goods to Lua.
     */
    public void settle(SnapshotSource source, int partition, long lastOffset) {
        for (Goods g : goods.values()) g.unsettled = false;
        for (Long goodsId : toArm) {
            Long wait = notBefore.get(goodsId);
            if (wait != null && wait > lastOffset) continue;
            SaleSnapshot s = source.snapshot(goodsId, partition);
            if (s == null) continue;
            if (s.lastDecidedOffset() > lastOffset) {
                notBefore.put(goodsId, s.lastDecidedOffset());
                continue;
            }
            notBefore.remove(goodsId);
            if (!s.closed()) goods.put(goodsId, new Goods(s));
        }
        toArm.clear();
    }

    /** Reads a goods' sale from Redis; null when there is none or it cannot be read now. */
    @FunctionalInterface
    public interface SnapshotSource {
        SaleSnapshot snapshot(long goodsId, int partition);
    }

    private static LuaResult answer(String code, String detail, long stock) {
        return new LuaResult(code, detail, stock, LuaResult.Status.NEW);
    }
}
