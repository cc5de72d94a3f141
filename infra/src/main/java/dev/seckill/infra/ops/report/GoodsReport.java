package dev.seckill.infra.ops.report;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Latencies;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one goods' sale came to, computed from its outcomes, its ledger entries and its orders: requests, outcomes by
 * kind and reason, when it sold out, decision latency, the order lifecycle and the units released. Pure: the same
 * records give the same report.
 *
 * @param outcomes       every decided request of the goods, in decision order
 * @param byKindReason   {@code SUCCESS}, {@code SOLD_OUT}, {@code REJECTED/over_limit}, ... → count
 * @param openedAt       the first OPENED entry's time (null when the ledger has none)
 * @param soldOutAt      when the goods' stock first reached 0 (the decision of the SUCCESS that took its last unit,
 *                       in whichever bucket), or null
 * @param latencyMs      accept → decision of every request (ms), sorted
 * @param orders         order status → count (CREATED, PAYING, PAID, CANCELLED), from the database
 * @param unitsReleased  units given back by RELEASED entries
 * @param stockOverTime  (decidedAt, the goods' units left after it) of every stock change, in order — over all its
 *                       buckets and the units in transit between them ({@link GoodsStock})
 * @param buckets        the buckets of a goods split into buckets (its last such sale's), in bucket order; empty for
 *                       one bucket
 */
public record GoodsReport(
        long goodsId,
        List<Outcome> outcomes,
        Map<String, Long> byKindReason,
        Instant openedAt,
        Instant soldOutAt,
        long[] latencyMs,
        Map<String, Long> orders,
        long unitsReleased,
        List<StockPoint> stockOverTime,
        LotteryView lottery,
        List<Bucket> buckets) {

    /**
     * A lottery sale's opening as the buyers met it: how many buyers its window drew, and the winners among the window's
     * purchases by quarter of arrival (earliest first): about equal under a draw, front-loaded under a race.
     */
    public record LotteryView(long windowMs, int buyers, long[] winnersByArrivalQuarter) {}

    /** The stock left at an instant. */
    public record StockPoint(Instant at, long stock) {}

    /**
     * One bucket of a goods split into buckets: the commands partition it is decided in and the units its entries
     * moved — opened with, sold, released, moved in from and out to other buckets — and its units left.
     */
    public record Bucket(
            int index, int partition, long opened, long sold, long released, long movedIn, long movedOut, long left) {
        static Bucket none(LedgerEntry e) {
            return new Bucket(e.bucketIndex(), e.commandPartition(-1), 0, 0, 0, 0, 0, 0);
        }

        Bucket with(LedgerEntry e) {
            long q = e.quantity();
            long after = e.stockAfter();
            return switch (e.type()) {
                // an OPENED's quantity is the change from what the bucket had left; it opened with stockAfter
                case OPENED -> new Bucket(index, e.commandPartition(-1), after, 0, 0, 0, 0, after);
                case DEDUCTED -> new Bucket(index, partition, opened, sold + q, released, movedIn, movedOut, after);
                case RELEASED -> new Bucket(index, partition, opened, sold, released + q, movedIn, movedOut, after);
                case TRANSFERRED_IN ->
                    new Bucket(index, partition, opened, sold, released, movedIn + q, movedOut, after);
                case TRANSFERRED_OUT ->
                    new Bucket(index, partition, opened, sold, released, movedIn, movedOut + q, after);
                default -> new Bucket(index, partition, opened, sold, released, movedIn, movedOut, after);
            };
        }
    }

    public static GoodsReport of(
            long goodsId, List<Outcome> outcomesOfGoods, List<LedgerEntry> ledgerOfGoods, Map<String, Long> orders) {
        List<Outcome> outcomes = new ArrayList<>(outcomesOfGoods);
        outcomes.sort(Comparator.comparing(Outcome::decidedAt).thenComparingLong(Outcome::offset));
        Map<String, Long> byKindReason = new TreeMap<>();
        for (Outcome o : outcomes)
            byKindReason.merge(o.outcome() + (o.reason() == null ? "" : "/" + o.reason()), 1L, Long::sum);
        Instant opened = ledgerOfGoods.stream()
                .filter(e -> e.type() == LedgerType.OPENED)
                .map(LedgerEntry::at)
                .min(Instant::compareTo)
                .orElse(null);
        GoodsStock stock = GoodsStock.of(ledgerOfGoods);
        // one bucket: its SUCCESS's stockAfter is the goods'; a goods split into buckets: all its buckets and transit
        Instant soldOut = !stock.buckets().isEmpty()
                ? stock.soldOutAt()
                : outcomes.stream()
                        .filter(o -> o.outcome() == OutcomeKind.SUCCESS && o.stockAfter() == 0)
                        .map(Outcome::decidedAt)
                        .findFirst()
                        .orElse(null);
        long[] latency = outcomes.stream()
                .filter(o -> o.acceptedAt() != null)
                .mapToLong(o -> Duration.between(o.acceptedAt(), o.decidedAt()).toMillis())
                .sorted()
                .toArray();
        long released = ledgerOfGoods.stream()
                .filter(e -> e.type() == LedgerType.RELEASED)
                .mapToLong(LedgerEntry::quantity)
                .sum();
        return new GoodsReport(
                goodsId,
                List.copyOf(outcomes),
                byKindReason,
                opened,
                soldOut,
                latency,
                new TreeMap<>(orders),
                released,
                stock.points(),
                lottery(ledgerOfGoods, outcomes),
                stock.buckets());
    }

    /** The lottery view of the goods' last drawn sale, or null when none was drawn. */
    static LotteryView lottery(List<LedgerEntry> ledger, List<Outcome> outcomes) {
        LedgerEntry drawn = ledger.stream()
                .filter(e -> e.type() == LedgerType.DRAWN
                        && e.draw() != null
                        && e.draw().windowEndAt() != null)
                .reduce((a, b) -> b)
                .orElse(null);
        if (drawn == null) return null;
        Instant end = drawn.draw().windowEndAt();
        Instant start = end.minusMillis(drawn.draw().windowMs());
        List<Outcome> window = outcomes.stream()
                .filter(o -> o.acceptedAt() != null
                        && !o.acceptedAt().isBefore(start)
                        && o.acceptedAt().isBefore(end))
                .sorted(Comparator.comparing(Outcome::acceptedAt))
                .toList();
        long[] quarters = new long[4];
        for (int i = 0; i < window.size(); i++)
            if (window.get(i).outcome() == OutcomeKind.SUCCESS) quarters[(int) (4L * i / window.size())]++;
        return new LotteryView(drawn.draw().windowMs(), drawn.draw().buyers(), quarters);
    }

    public long requests() {
        return outcomes.size();
    }

    /**
     * Whether the goods never had a sale here: no OPENED entry, and every purchase decided was REJECTED {@code no_sale}
     * (a JIT warm-up's purchases, or a client buying a goods that is not on sale): no sale of the user's.
     */
    public boolean noSale() {
        return openedAt == null && !outcomes.isEmpty() && byKindReason.keySet().equals(Set.of("REJECTED/no_sale"));
    }

    public long count(String kindOrReason) {
        return byKindReason.getOrDefault(kindOrReason, 0L);
    }

    /** Requests of a kind, whatever their reason. */
    public long kind(OutcomeKind kind) {
        return byKindReason.entrySet().stream()
                .filter(e -> e.getKey().equals(kind.name()) || e.getKey().startsWith(kind + "/"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * The latency at quantile q (0..1) in ms, or -1 without requests: the maximum (q = 1) exactly, the others from a
     * histogram (the middle of their bucket: above 2 s a bucket is 2 ms wide).
     */
    public long latencyQuantileMs(double q) {
        if (latencyMs.length == 0) return -1;
        if (q >= 1.0) return Arrays.stream(latencyMs).max().getAsLong();
        return Latencies.percentile(latencyMs, 100 * q, 0);
    }

    /** Time from the sale's opening to its last unit sold, or null. */
    public Duration openToSoldOut() {
        return openedAt == null || soldOutAt == null ? null : Duration.between(openedAt, soldOutAt);
    }

    /** Time from the first request accepted to the last unit sold, or null. */
    public Duration firstRequestToSoldOut() {
        Instant first = outcomes.stream()
                .map(Outcome::acceptedAt)
                .filter(a -> a != null)
                .min(Instant::compareTo)
                .orElse(null);
        return first == null || soldOutAt == null ? null : Duration.between(first, soldOutAt);
    }

    public long ordersWith(String status) {
        return orders.getOrDefault(status, 0L);
    }

    public long ordersCreated() {
        return orders.values().stream().mapToLong(Long::longValue).sum();
    }
}
