package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.bench.hostile.HostilePhases.Figures;
import dev.seckill.infra.bench.hostile.HostilePhases.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The text report of {@code bench hostile}: the table, then every figure as a {@code name value} line (for a reader or
 * a script), and the measures the table and the report share.
 */
final class HostileReport {
    private HostileReport() {}

    /** Writes the report: a title line, the table, a {@code figures} line, then the figures. */
    static void write(Path file, String title, String table, Shape shape, Figures quiet, Figures flood)
            throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        Files.writeString(file, title + "\n" + table + "\nfigures\n" + figures(shape, quiet, flood));
    }

    /** Every figure as {@code name value}, one per line: the text report's body. */
    static String figures(Shape shape, Figures quiet, Figures flood) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("buyers", shape.buyers());
        f.put("stock", shape.stock());
        f.put("units_per_buyer", shape.quantity());
        f.put("hostile_accounts", shape.hostileAccounts());
        f.put("hostile_account_rate_per_second", shape.perUserRate());
        f.put("get_connections", shape.getConnections());
        for (Figures p : new Figures[] {quiet, flood}) {
            String n = p.name().toLowerCase(Locale.ROOT) + ".";
            f.put(n + "seconds", String.format("%.2f", p.sale().seconds()));
            f.put(n + "time_to_answer_p50_ms", String.format("%.1f", p.percentileMillis(50)));
            f.put(n + "time_to_answer_p99_ms", String.format("%.1f", p.percentileMillis(99)));
            f.put(n + "no_answer", p.sale().count(HostileBuyers.NO_ANSWER));
            f.put(n + "units_sold", p.unitsSold());
            f.put(n + "oversold", oversold(p, shape));
            f.put(n + "accepted", p.sale().acceptedCount());
            f.put(n + "polled", p.sale().polledCount());
            f.put(n + "accepted_404", accepted404(p));
            f.put(n + "claims_tried", p.claimsSame().tried() + p.claimsOther().tried());
            f.put(
                    n + "claims_refused_409",
                    p.claimsSame().refused() + p.claimsOther().refused());
            f.put(n + "claims_lost", claimsLost(p));
            f.put(n + "owner_lookups_other_than_outcome", p.owners().otherThanOutcome());
            f.put(n + "load_average", String.format("%.2f", p.loadAverage()));
            f.put(n + "redis_used_memory_before_bytes", p.before().usedMemory());
            f.put(n + "redis_used_memory_after_bytes", p.after().usedMemory());
            f.put(n + "redis_keys_before", p.before().keys());
            f.put(n + "redis_keys_after", p.after().keys());
        }
        HostileFlood.Counts c = flood.flood();
        f.put("flood.seconds_of_flood", String.format("%.2f", c.seconds()));
        f.put("flood.hostile_requests", c.sent());
        f.put("flood.hostile_posts", c.posts());
        f.put("flood.hostile_posts_held_back", c.postsHeldBack());
        f.put("flood.hostile_gets", c.gets());
        f.put("flood.hostile_post_answers", compact(c.postAnswers()));
        f.put("flood.hostile_get_answers", compact(c.getAnswers()));
        f.put("p99_ratio_flood_to_quiet", String.format("%.2f", ratio99(quiet, flood)));
        for (String kind : new String[] {"hostile", "hostile_post"}) {
            long sent = kind.equals("hostile") ? c.sent() : c.posts();
            for (String net : new String[] {"", "_net"}) {
                Figures less = net.isEmpty() ? null : quiet;
                f.put("redis_bytes_per_million_" + kind + net, round(perMillion(flood, less, true, sent)));
                f.put("redis_keys_per_million_" + kind + net, round(perMillion(flood, less, false, sent)));
            }
        }
        return f.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining("\n", "", "\n"));
    }

    static long oversold(Figures p, Shape shape) {
        return Math.max(0, p.unitsSold() - shape.stock());
    }

    static long accepted404(Figures p) {
        return p.sale().notFoundCount() + p.owners().notFound();
    }

    static long claimsLost(Figures p) {
        return p.claimsSame().lost() + p.claimsOther().lost();
    }

    static double ratio99(Figures quiet, Figures flood) {
        return flood.percentileMillis(99) / quiet.percentileMillis(99);
    }

    /**
     * Redis's growth over the flood's sale (bytes of used_memory, or keys) per million of {@code sent} hostile
     * requests; with {@code quiet}, less the quiet sale's own growth (what the buyers' sale itself leaves).
     */
    static double perMillion(Figures flood, Figures quiet, boolean bytes, long sent) {
        RedisUsage g = flood.after().minus(flood.before());
        if (quiet != null) g = g.minus(quiet.after().minus(quiet.before()));
        return (bytes ? g.usedMemory() : g.keys()) * 1e6 / Math.max(1, sent);
    }

    private static String round(double v) {
        return String.format("%.0f", v);
    }

    private static String compact(Map<Integer, Long> byStatus) {
        return byStatus.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
