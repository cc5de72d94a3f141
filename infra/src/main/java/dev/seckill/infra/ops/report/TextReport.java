package dev.seckill.infra.ops.report;

import dev.seckill.contracts.outcome.OutcomeKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report as text, one block per goods; numbers as {@link Locale#ROOT} writes them (1,234.5) under every locale. */
public final class TextReport {
    private TextReport() {}

    public static String render(List<GoodsReport> reports) {
        StringBuilder b = new StringBuilder();
        if (reports.isEmpty()) b.append("(no outcomes and no ledger entries: nothing was decided here)\n");
        for (GoodsReport r : reports) {
            b.append(String.format(
                    Locale.ROOT,
                    "goods %d: %,d requests decided%s%n",
                    r.goodsId(),
                    r.requests(),
                    r.noSale()
                            ? " — not a sale: never opened, every request REJECTED no_sale (a warm-up's, or a goods"
                                    + " not on sale)"
                            : ""));
            for (OutcomeKind k : OutcomeKind.values()) {
                long n = r.kind(k);
                if (n == 0) continue;
                b.append(String.format(
                        Locale.ROOT, "  %-10s %,9d  %5.1f%%", k, n, 100.0 * n / Math.max(1, r.requests())));
                String reasons = reasons(r.byKindReason(), k);
                b.append(reasons.isEmpty() ? "" : "  (" + reasons + ")").append('\n');
            }
            b.append(String.format(
                    Locale.ROOT,
                    "  sold out   %s%n",
                    r.soldOutAt() == null
                            ? "no"
                            : r.soldOutAt() + "  (" + ms(r.openToSoldOut()) + " after the open, "
                                    + ms(r.firstRequestToSoldOut()) + " after the first request)"));
            b.append(String.format(
                    Locale.ROOT,
                    "  accept -> decision  p50 %d ms  p99 %d ms  max %d ms%n",
                    r.latencyQuantileMs(0.5),
                    r.latencyQuantileMs(0.99),
                    r.latencyQuantileMs(1.0)));
            b.append(String.format(
                    Locale.ROOT,
                    "  orders     %,d created: %,d paid, %,d being paid, %,d unpaid, %,d cancelled; %,d units released%n",
                    r.ordersCreated(),
                    r.ordersWith("PAID"),
                    r.ordersWith("PAYING"),
                    r.ordersWith("CREATED"),
                    r.ordersWith("CANCELLED"),
                    r.unitsReleased()));
            for (GoodsReport.Bucket k : r.buckets())
                b.append(String.format(
                        Locale.ROOT,
                        "  bucket %-3d partition %d: opened %,d, sold %,d, released %,d, moved in %,d / out %,d, left %,d%n",
                        k.index(),
                        k.partition(),
                        k.opened(),
                        k.sold(),
                        k.released(),
                        k.movedIn(),
                        k.movedOut(),
                        k.left()));
            if (r.lottery() != null)
                b.append(String.format(
                        Locale.ROOT,
                        "  lottery    a %,d ms window drew %,d buyers; winners by quarter of arrival (earliest first): %s"
                                + "  (./seckill draw verify --goods %d checks the draw)%n",
                        r.lottery().windowMs(),
                        r.lottery().buyers(),
                        Arrays.toString(r.lottery().winnersByArrivalQuarter()),
                        r.goodsId()));
        }
        return b.toString();
    }

    private static String reasons(Map<String, Long> byKindReason, OutcomeKind k) {
        StringBuilder b = new StringBuilder();
        byKindReason.forEach((key, n) -> {
            if (!key.startsWith(k + "/")) return;
            if (b.length() > 0) b.append(", ");
            b.append(key.substring(k.name().length() + 1)).append(' ').append(n);
        });
        return b.toString();
    }

    private static String ms(Duration d) {
        return d == null ? "-" : d.toMillis() + " ms";
    }
}
