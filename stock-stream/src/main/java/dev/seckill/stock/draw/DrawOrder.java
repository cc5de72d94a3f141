package dev.seckill.stock.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
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
 * the draw took (the open's when nothing was held).
 */
public record DrawOrder(List<HeldCommand> sequence, List<Long> buyers, long throughOffset) {

    /** Whether {@code p} is one of the window's purchases of the sale {@code d}. */
    public static boolean inWindow(Purchase p, long goodsId, long startAt, long windowMs) {
        if (p.goodsId() != goodsId || p.acceptedAt() == null) return false;
        Instant at = p.acceptedAt();
        return !at.isBefore(Instant.ofEpochMilli(startAt)) && at.isBefore(Instant.ofEpochMilli(startAt + windowMs));
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
                    && inWindow(p, d.goodsId(), d.startAt(), d.windowMs()))
                byBuyer.computeIfAbsent(p.userId(), u -> new ArrayList<>()).add(h);
            else rest.add(h);
        }
        List<Long> order = Draw.order(seed, d.goodsId(), byBuyer.keySet());
        List<HeldCommand> sequence = new ArrayList<>(held.size());
        for (long u : order) sequence.addAll(byBuyer.get(u));
        sequence.addAll(rest);
        return new DrawOrder(sequence, order, through);
    }
}
