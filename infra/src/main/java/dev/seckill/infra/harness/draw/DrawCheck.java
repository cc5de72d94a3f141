package dev.seckill.infra.harness.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.draw.DrawOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recomputes a lottery sale's draw from the recorded topics alone and says whether its outcomes follow it
 * (docs/contracts.md, "The draw"): the revealed seed opens the commitment published at the open; the window's buyers
 * are those the DRAWN entry counts; the winners are the draw's first buyers as far as the units go (each buyer's
 * requests in arrival order, within the per-user limit); the recorded SUCCESS outcomes of the window's purchases are
 * exactly those, and their DEDUCTED entries come in the draw's order. No secret is needed.
 */
public final class DrawCheck {
    /** One goods' records: commands (key, offset, bytes) of its partition, its ledger entries and outcomes. */
    public record Command(long offset, String key, byte[] raw) {}

    /** What the check found of one draw; {@code problems} empty: the outcomes follow the draw. */
    public record Result(
            long goodsId,
            long openOffset,
            int buyers,
            List<Long> order,
            Set<String> expectedWinners,
            Set<String> recordedWinners,
            List<String> problems) {
        public boolean follows() {
            return problems.isEmpty();
        }

        /** The rank in the draw (1 = first) of each buyer, for the report. */
        public Map<Long, Integer> ranks() {
            Map<Long, Integer> r = new HashMap<>();
            for (int i = 0; i < order.size(); i++) r.put(order.get(i), i + 1);
            return r;
        }
    }

    private DrawCheck() {}

    /** Every draw of {@code goods} in the records, oldest first; none when the goods had no lottery sale drawn. */
    public static List<Result> check(
            long goods, List<Command> commands, List<LedgerEntry> ledger, List<Outcome> outcomes) {
        List<Result> results = new ArrayList<>();
        for (LedgerEntry drawn : ledger) {
            if (drawn.goodsId() != goods || drawn.type() != LedgerType.DRAWN) continue;
            results.add(one(goods, drawn, commands, ledger, outcomes));
        }
        return results;
    }

    private static Result one(
            long goods, LedgerEntry drawn, List<Command> commands, List<LedgerEntry> ledger, List<Outcome> outcomes) {
        List<String> problems = new ArrayList<>();
        long openOffset = Long.parseLong(drawn.opId().substring(drawn.opId().lastIndexOf(':') + 1));
        LedgerEntry opened = ledger.stream()
                .filter(e -> e.type() == LedgerType.OPENED && e.goodsId() == goods)
                .filter(e -> e.commandOffset() != null && e.commandOffset() == openOffset)
                .findFirst()
                .orElse(null);
        byte[] seed = Draw.unhex(drawn.draw().seed());
        if (opened == null || opened.draw() == null)
            problems.add("no OPENED entry with a commitment at offset " + openOffset);
        else if (!Draw.opens(opened.draw().commitment(), seed))
            problems.add("the revealed seed does not hash to the commitment published at the open");
        OpenSale open = commands.stream()
                .filter(c -> c.offset() == openOffset)
                .map(c -> CommandCodec.decode(c.raw()))
                .filter(p -> p instanceof ParsedCommand.Valid v && v.command() instanceof OpenSale)
                .map(p -> (OpenSale) ((ParsedCommand.Valid) p).command())
                .findFirst()
                .orElse(null);
        if (open == null) {
            problems.add("no open_sale at offset " + openOffset + " of the commands");
            return new Result(goods, openOffset, 0, List.of(), Set.of(), Set.of(), problems);
        }
        Map<Long, List<Purchase>> byBuyer = new LinkedHashMap<>();
        for (Command c : commands) {
            if (c.offset() <= openOffset || c.offset() > drawn.draw().throughOffset()) continue;
            if (CommandCodec.decode(c.raw()) instanceof ParsedCommand.Valid v
                    && v.command() instanceof Purchase p
                    && Long.toString(p.goodsId()).equals(c.key())
                    && DrawOrder.inWindow(p, goods, open.windowStart().toEpochMilli(), open.windowMs()))
                byBuyer.computeIfAbsent(p.userId(), u -> new ArrayList<>()).add(p);
        }
        if (drawn.draw().buyers() != byBuyer.size())
            problems.add(
                    "the DRAWN entry counts " + drawn.draw().buyers() + " buyers, the commands hold " + byBuyer.size());
        List<Long> order = Draw.order(seed, goods, byBuyer.keySet());
        Set<String> expected = winners(open, order, byBuyer);
        Set<String> window = new LinkedHashSet<>();
        byBuyer.values().forEach(l -> l.forEach(p -> window.add(p.requestId())));
        Set<String> recorded = new LinkedHashSet<>();
        for (Outcome o : outcomes)
            if (o.goodsId() == goods && o.outcome() == OutcomeKind.SUCCESS && window.contains(o.requestId()))
                recorded.add(o.requestId());
        for (String r : expected)
            if (!recorded.contains(r)) problems.add(r + ": the draw makes it a winner, no SUCCESS is recorded");
        for (String r : recorded)
            if (!expected.contains(r)) problems.add(r + ": SUCCESS recorded, the draw does not make it a winner");
        deductionsInDrawOrder(goods, drawn, ledger, window, order, problems);
        return new Result(goods, openOffset, byBuyer.size(), order, expected, recorded, problems);
    }

    /**
     * The draw's winners: buyer by buyer in its order, each request in arrival order, as the decision judges them — a
     * requestId seen before is not a new purchase (a retry emits nothing, another buyer's is refused), a quantity above
     * the per-user limit is refused, one above the units left is sold out, and a buyer who won holds a live purchase, so
     * their later requests are DUPLICATE (invariant 2).
     */
    static Set<String> winners(OpenSale open, List<Long> order, Map<Long, List<Purchase>> byBuyer) {
        long units = open.stock();
        Set<String> won = new LinkedHashSet<>();
        Set<String> decided = new HashSet<>(); // in the draw's order: a requestId's first purchase is the one decided
        for (long u : order) {
            for (Purchase p : byBuyer.get(u)) {
                if (!decided.add(p.requestId())) continue;
                if (p.quantity() > open.perUserLimit() || p.quantity() > units) continue;
                units -= p.quantity();
                won.add(p.requestId());
                break;
            }
        }
        return won;
    }

    private static void deductionsInDrawOrder(
            long goods,
            LedgerEntry drawn,
            List<LedgerEntry> ledger,
            Set<String> window,
            List<Long> order,
            List<String> problems) {
        Map<Long, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) rank.put(order.get(i), i);
        int last = -1;
        boolean after = false;
        for (LedgerEntry e : ledger) {
            if (e == drawn) after = true;
            if (!after || e.goodsId() != goods || e.type() != LedgerType.DEDUCTED || !window.contains(e.requestId()))
                continue;
            int r = rank.getOrDefault(e.userId(), Integer.MAX_VALUE);
            if (r < last) problems.add(e.requestId() + ": deducted after a buyer the draw ranks behind it");
            last = Math.max(last, r);
        }
    }
}
