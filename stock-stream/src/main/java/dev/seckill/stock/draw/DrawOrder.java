package dev.seckill.stock.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a drawn sale's held commands are decided once its draw runs (docs/contracts.md, "The draw"):
 * first the window's entries ({@link #entry}) buyer by buyer in the draw's order (one ticket per buyer; a buyer's
 * requests together, in arrival order), then everything else held, in arrival order. {@code leaves}: the entries' leaf
 * hashes in offset order, {@code digest} their {@link EntryTree} root, {@code seed} the draw's ({@link Draw#seed} of the
 * digest and the beacon round's randomness). {@code throughOffset}: the last offset the
 * draw had read (the open's when nothing was held). A registration's entries are passed on as accepted at the sale's
 * start ({@link #asDecided}). {@code positions}: the held commands in the draw's order, as their indexes in the held
 * list the order was made of ({@link DrawRelease} takes them from the store in that order).
 */
public record DrawOrder(
        List<Integer> positions,
        List<Long> buyers,
        List<byte[]> leaves,
        byte[] digest,
        byte[] seed,
        long throughOffset) {

    /**
     * The purchase a record is, when it is an entry of the draw: a valid purchase of the goods (keyed by it) whose
     * {@code acceptedAt} is in the window {@code [windowStart, windowEnd)} and which the broker appended in
     * {@code [windowStart, cutoffAt]} — the append time, never a producer's clock, bounds it. Null otherwise.
     */
    public static Purchase entry(
            long goodsId, long windowStart, long windowEnd, long cutoffAt, String key, byte[] raw, long appendedAt) {
        if (appendedAt < windowStart || appendedAt > cutoffAt) return null;
        if (!(CommandCodec.decode(raw) instanceof ParsedCommand.Valid v && v.command() instanceof Purchase p))
            return null;
        if (p.goodsId() != goodsId || !Long.toString(goodsId).equals(key) || p.acceptedAt() == null) return null;
        Instant at = p.acceptedAt();
        boolean inWindow =
                !at.isBefore(Instant.ofEpochMilli(windowStart)) && at.isBefore(Instant.ofEpochMilli(windowEnd));
        return inWindow ? p : null;
    }

    /** Whether a held command is one of the draw's entries ({@link #entry}). */
    static boolean isEntry(PendingDraw d, HeldCommand h) {
        long windowEnd = d.facts().windowEndAt().toEpochMilli();
        return entry(d.goodsId(), d.windowStart(), windowEnd, d.cutoffAt(), h.key(), h.raw(), h.timestamp()) != null;
    }

    /** The held commands in the order of the draw: its entries frozen in a digest, seeded with the beacon's randomness. */
    static DrawOrder of(PendingDraw d, List<HeldCommand> held, byte[] randomness) {
        Map<Long, List<Integer>> byBuyer = new LinkedHashMap<>();
        List<Integer> rest = new ArrayList<>();
        int index = -1;
        List<byte[]> leaves = new ArrayList<>();
        long through = d.openOffset();
        long windowEnd = d.facts().windowEndAt().toEpochMilli();
        for (HeldCommand h : held) {
            index++;
            through = Math.max(through, h.offset());
            Purchase p = entry(d.goodsId(), d.windowStart(), windowEnd, d.cutoffAt(), h.key(), h.raw(), h.timestamp());
            if (p == null) {
                rest.add(index);
                continue;
            }
            leaves.add(EntryTree.leaf(h.raw()));
            byBuyer.computeIfAbsent(p.userId(), u -> new ArrayList<>()).add(index);
        }
        byte[] digest = EntryTree.root(leaves);
        byte[] seed = Draw.seed(d.goodsId(), digest, randomness);
        List<Long> order = Draw.order(seed, d.goodsId(), byBuyer.keySet());
        List<Integer> positions = new ArrayList<>(held.size());
        for (long u : order) positions.addAll(byBuyer.get(u));
        positions.addAll(rest);
        return new DrawOrder(positions, order, leaves, digest, seed, through);
    }

    /** The DRAWN ledger entry of this order: the draw's facts revealed (digest, entries, round signature, seed). */
    LedgerEntry drawnEntry(PendingDraw d, byte[] signature, long stockAfter, Instant at) {
        return LedgerEntry.of(
                        LedgerEntry.drawnOpId(d.goodsId(), d.openOffset()),
                        d.goodsId(),
                        LedgerType.DRAWN,
                        0,
                        null,
                        null,
                        null,
                        stockAfter,
                        at)
                .withDraw(d.facts().revealed(digest, leaves.size(), signature, seed, throughOffset, buyers.size()));
    }

    /** A held command as the draw passes it on: a registration's entry as accepted at the sale's start, else as it came. */
    static HeldCommand asDecided(PendingDraw d, HeldCommand h) {
        if (d.mode() != Fairness.REGISTRATION) return h;
        Purchase p = entry(
                d.goodsId(),
                d.windowStart(),
                d.facts().windowEndAt().toEpochMilli(),
                d.cutoffAt(),
                h.key(),
                h.raw(),
                h.timestamp());
        return p == null ? h : registered(d, p, h);
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
