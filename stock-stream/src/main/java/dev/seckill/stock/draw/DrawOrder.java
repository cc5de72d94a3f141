package dev.seckill.stock.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.Fairness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a lottery sale's held commands are decided once its window closes (docs/contracts.md, "The
 * draw"): first the window's purchases — valid purchases of the goods whose {@code acceptedAt} is in
 * {@code [startAt, startAt + windowMs)} — buyer by buyer in the draw's order (one ticket per buyer; a buyer's requests
 * together, in arrival order), then everything else held, in arrival order. {@code throughOffset}: the last offset
 * the draw took (the open's when nothing was held). A registration's window purchases are passed on as accepted at the
 * sale's start.
 */
public record DrawOrder(List<HeldCommand> sequence, List<Long> buyers, long throughOffset) {

    /** Whether {@code p} is one of the purchases of the window {@code [windowStart, windowStart + windowMs)}. */
    public static boolean inWindow(Purchase p, long goodsId, long windowStart, long windowMs) {
        if (p.goodsId() != goodsId || p.acceptedAt() == null) return false;
        Instant at = p.acceptedAt();
        return !at.isBefore(Instant.ofEpochMilli(windowStart))
                && at.isBefore(Instant.ofEpochMilli(windowStart + windowMs));
    }

    static DrawOrder of(PendingDraw d, byte[] seed, List<HeldCommand> held) {
        Map<Long, List<HeldCommand>> byBuyer = new LinkedHashMap<>();
        List<HeldCommand> rest = new ArrayList<>();
        long through = d.openOffset();
        for (HeldCommand h : held) {
            through = Math.max(through, h.offset());
            if (CommandCodec.decode(h.raw()) instanceof ParsedCommand.Valid v
                    && v.command() instanceof Purchase p
                    && Long.toString(p.goodsId()).equals(h.key())
                    && inWindow(p, d.goodsId(), d.windowStart(), d.windowMs()))
                byBuyer.computeIfAbsent(p.userId(), u -> new ArrayList<>()).add(registered(d, p, h));
            else rest.add(h);
        }
        List<Long> order = Draw.order(seed, d.goodsId(), byBuyer.keySet());
        List<HeldCommand> sequence = new ArrayList<>(held.size());
        for (long u : order) sequence.addAll(byBuyer.get(u));
        sequence.addAll(rest);
        return new DrawOrder(sequence, order, through);
    }

    /**
     * A registration's purchase is decided as accepted at the sale's start (the window it was accepted in is before the
     * start, where the decision would say {@code not_started}); a lottery's as it came.
     */
    private static HeldCommand registered(PendingDraw d, Purchase p, HeldCommand h) {
        if (d.mode() != Fairness.REGISTRATION) return h;
        Purchase atStart =
                new Purchase(p.requestId(), p.goodsId(), p.userId(), p.quantity(), Instant.ofEpochMilli(d.startAt()));
        return new HeldCommand(
                h.key(),
                CommandCodec.encode(atStart),
                h.topic(),
                h.partition(),
                h.offset(),
                h.timestamp(),
                h.headers());
    }
}
