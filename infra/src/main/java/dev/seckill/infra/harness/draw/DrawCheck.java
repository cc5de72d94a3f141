package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.draw.DrawOrder;
import dev.seckill.stock.draw.beacon.BeaconChain;
import dev.seckill.stock.draw.beacon.BeaconRound;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Recomputes every draw of a goods from its recorded topics and the beacon's public key alone, and says whether the
 * ledger and the outcomes follow it (docs/contracts.md, "The draw"): each drawn OPENED has its DRAWN (once its round is
 * a minute old) with the same promised facts; the round existed only after the cutoff and its signature verifies; the
 * DRAWN was made after the cutoff; the entries — the window's purchases the broker appended up to the cutoff — give the
 * published digest, none of them left out; the seed follows from the digest and the round; the winners are the draw's
 * first buyers as far as the units go, exactly the SUCCESS outcomes; their DEDUCTED entries come in the draw's order.
 */
public final class DrawCheck {
    /** How long after its round's time a drawn OPENED without its DRAWN is a fault rather than a draw in progress. */
    static final long DRAWN_LATE_MS = 60_000;

    /** One command record of the goods' partition: where it is, its key and bytes, and the broker's time of it. */
    public record Command(long offset, String key, byte[] raw, long timestamp, String timestampType) {
        public Command(long offset, String key, byte[] raw) {
            this(offset, key, raw, -1, "LogAppendTime");
        }
    }

    /** One entry of a draw: its request, its buyer, its place among the entries, its leaf hash. */
    public record Entry(long offset, Purchase purchase, int index, byte[] leaf) {}

    /** What the check found of one draw; {@code problems} empty: it follows. {@code pending}: not drawn yet. */
    public record Result(
            long goodsId,
            long openOffset,
            boolean pending,
            int buyers,
            List<Long> order,
            List<Entry> entries,
            Set<String> expectedWinners,
            Set<String> recordedWinners,
            List<String> problems,
            List<String> notes) {
        public boolean follows() {
            return problems.isEmpty();
        }

        /** The rank in the draw (1 = first) of each buyer, for the report. */
        public Map<Long, Integer> ranks() {
            Map<Long, Integer> r = new HashMap<>();
            for (int i = 0; i < order.size(); i++) r.put(order.get(i), i + 1);
            return r;
        }

        /** The leaves of the entries, in order: the tree whose root is the digest. */
        public List<byte[]> leaves() {
            return entries.stream().map(Entry::leaf).toList();
        }
    }

    private DrawCheck() {}

    /** Every drawn sale of the goods in the records, oldest first; none when the goods had no drawn sale. */
    public static List<Result> check(DrawRecords r) {
        List<Result> results = new ArrayList<>();
        for (LedgerEntry opened : r.ledger()) {
            if (opened.goodsId() != r.goodsId()
                    || opened.type() != LedgerType.OPENED
                    || opened.draw() == null
                    || opened.commandOffset() == null) continue;
            results.add(one(r, opened));
        }
        return results;
    }

    private static Result one(DrawRecords r, LedgerEntry opened) {
        long goods = r.goodsId();
        long openOffset = opened.commandOffset();
        DrawFacts promised = opened.draw();
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        OpenSale open = r.commands().stream()
                .filter(c -> c.offset() == openOffset)
                .map(c -> CommandCodec.decode(c.raw()))
                .filter(p -> p instanceof ParsedCommand.Valid v && v.command() instanceof OpenSale)
                .map(p -> (OpenSale) ((ParsedCommand.Valid) p).command())
                .findFirst()
                .orElse(null);
        LedgerEntry drawn = r.ledger().stream()
                .filter(e -> e.type() == LedgerType.DRAWN && e.goodsId() == goods)
                .filter(e -> e.opId().equals(LedgerEntry.drawnOpId(goods, openOffset)))
                .findFirst()
                .orElse(null);
        BeaconChain chain = r.chain();
        long roundAt = chain == null ? 0 : chain.timeOfMs(promised.beaconRound());
        if (open == null) {
            problems.add("no open_sale at offset " + openOffset + " of the commands");
            return empty(goods, openOffset, false, problems, notes);
        }
        if (chain == null) problems.add("the beacon chain " + promised.beaconChain() + " is not known to this check");
        else if (!chain.hash().equals(promised.beaconChain()))
            problems.add("the OPENED entry names beacon chain " + promised.beaconChain() + ", not " + chain.hash());
        else if (roundAt <= promised.cutoffAt().toEpochMilli())
            problems.add("beacon round " + promised.beaconRound() + " (" + Instant.ofEpochMilli(roundAt)
                    + ") existed at the cutoff " + promised.cutoffAt());
        if (!promised.windowEndAt().equals(open.windowEnd()))
            problems.add("the OPENED entry's windowEndAt " + promised.windowEndAt() + " is not the open's "
                    + open.windowEnd());
        if (drawn == null) {
            if (r.newestTime() > roundAt + DRAWN_LATE_MS)
                problems.add("no DRAWN entry for the draw opened at offset " + openOffset + " (its round "
                        + promised.beaconRound() + " was published at " + Instant.ofEpochMilli(roundAt) + ")");
            else notes.add("pending: the draw opened at offset " + openOffset + " has not run yet");
            return empty(goods, openOffset, problems.isEmpty(), problems, notes);
        }
        DrawFacts d = drawn.draw();
        if (!sameTerms(promised, d))
            problems.add(
                    "the DRAWN entry's window, cutoff or beacon round differ from those the OPENED entry promised");
        if (drawn.at().isBefore(promised.cutoffAt()))
            problems.add("DRAWN at " + drawn.at() + ", before the cutoff " + promised.cutoffAt());
        byte[] signature = Draw.unhex(d.signature());
        if (chain != null && !new BeaconRound(promised.beaconRound(), signature).verifies(chain))
            problems.add("beacon round " + promised.beaconRound() + "'s signature does not verify under chain "
                    + chain.hash());
        // the entries: the window's purchases the broker appended up to the cutoff
        long windowStart = open.windowStart().toEpochMilli();
        long windowEnd = open.windowEnd().toEpochMilli();
        long cutoff = promised.cutoffAt().toEpochMilli();
        List<Entry> all = new ArrayList<>();
        boolean createTime = false;
        for (Command c : r.commands()) {
            if (c.offset() <= openOffset) continue;
            Purchase p = DrawOrder.entry(goods, windowStart, windowEnd, cutoff, c.key(), c.raw(), c.timestamp());
            if (p == null) continue;
            createTime |= !"LogAppendTime".equals(c.timestampType());
            all.add(new Entry(c.offset(), p, all.size(), EntryTree.leaf(c.raw())));
        }
        if (createTime)
            (r.allowCreateTime() ? notes : problems)
                    .add("window records carry CreateTime: the cutoff was judged on producers' clocks");
        List<Entry> taken =
                all.stream().filter(e -> e.offset() <= d.throughOffset()).toList();
        byte[] digest = EntryTree.root(all.stream().map(Entry::leaf).toList());
        byte[] takenDigest = EntryTree.root(taken.stream().map(Entry::leaf).toList());
        byte[] published = Draw.unhex(d.digest());
        List<Entry> entries = all;
        if (!Arrays.equals(digest, published)) {
            if (Arrays.equals(takenDigest, published) && taken.size() < all.size()) {
                entries = taken;
                for (Entry e : all.subList(taken.size(), all.size()))
                    problems.add(e.purchase().requestId() + ": appended at " + appendedAt(r, e.offset())
                            + " before the cutoff, left out of the draw");
            } else
                problems.add("the entries' digest " + Draw.hex(digest) + " (" + all.size()
                        + " entries) is not the published " + d.digest() + " (" + d.entries() + ")");
        } else if (d.entries() != all.size())
            problems.add("the DRAWN entry counts " + d.entries() + " entries, the commands hold " + all.size());
        byte[] seed = Draw.seed(goods, published, Draw.sha256(signature));
        if (!Arrays.equals(seed, Draw.unhex(d.seed())))
            problems.add("the published seed " + d.seed() + " does not follow from the digest and the beacon round");
        Map<Long, List<Purchase>> byBuyer = new LinkedHashMap<>();
        for (Entry e : entries)
            byBuyer.computeIfAbsent(e.purchase().userId(), u -> new ArrayList<>())
                    .add(e.purchase());
        if (d.buyers() != byBuyer.size())
            problems.add("the DRAWN entry counts " + d.buyers() + " buyers, the entries hold " + byBuyer.size());
        List<Long> order = Draw.order(seed, goods, byBuyer.keySet());
        Map<Integer, Long> opens = DrawOutcomes.opens(r.ledger(), opened);
        Set<String> before = DrawOutcomes.decidedBefore(r, opens);
        Set<String> expected = DrawOutcomes.winners(open, order, byBuyer, before);
        Set<String> window = new LinkedHashSet<>();
        byBuyer.values().forEach(l -> l.forEach(p -> window.add(p.requestId())));
        window.removeAll(before);
        Set<String> recorded = new LinkedHashSet<>();
        for (Outcome o : r.outcomes()) {
            Long openedAt = DrawOutcomes.openIn(opens, o);
            if (o.goodsId() == goods
                    && o.outcome() == OutcomeKind.SUCCESS
                    && openedAt != null
                    && o.offset() > openedAt
                    && window.contains(o.requestId())) recorded.add(o.requestId());
        }
        for (String id : expected)
            if (!recorded.contains(id)) problems.add(id + ": the draw makes it a winner, no SUCCESS is recorded");
        for (String id : recorded)
            if (!expected.contains(id)) problems.add(id + ": SUCCESS recorded, the draw does not make it a winner");
        DrawOutcomes.deductionsInDrawOrder(goods, drawn, r.ledger(), window, order, problems);
        return new Result(
                goods, openOffset, false, byBuyer.size(), order, entries, expected, recorded, problems, notes);
    }

    private static Result empty(
            long goods, long openOffset, boolean pending, List<String> problems, List<String> notes) {
        return new Result(goods, openOffset, pending, 0, List.of(), List.of(), Set.of(), Set.of(), problems, notes);
    }

    private static boolean sameTerms(DrawFacts a, DrawFacts b) {
        return Objects.equals(a.fairness(), b.fairness())
                && a.windowMs() == b.windowMs()
                && Objects.equals(a.windowEndAt(), b.windowEndAt())
                && Objects.equals(a.cutoffAt(), b.cutoffAt())
                && Objects.equals(a.beaconChain(), b.beaconChain())
                && Objects.equals(a.beaconRound(), b.beaconRound());
    }

    private static Instant appendedAt(DrawRecords r, long offset) {
        return r.commands().stream()
                .filter(c -> c.offset() == offset)
                .map(c -> Instant.ofEpochMilli(c.timestamp()))
                .findFirst()
                .orElse(null);
    }
}
