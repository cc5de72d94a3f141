package dev.seckill.infra.ops;

import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code ./seckill replay --from F --to T --as DRILL [--speed 1x|10x|max] [--goods N,...] [--stock N --limit N]
 * [--namespace N]}, {@code replay list} and {@code replay clean --as DRILL}: replay drills beside the live system.
 */
public final class ReplayCommand {
    static final String DRILL_PREFIX = "drill-";
    private static final int SHOWN = 10;

    private ReplayCommand() {}

    /** {@code replay list}: the drills on the stack. */
    public static int list(Settings base, PrintStream out) {
        KafkaClients.require(base, "run ./seckill up");
        new Namespaces(base)
                .list().stream()
                        .filter(e -> e.name().startsWith(DRILL_PREFIX))
                        .forEach(e -> out.printf(
                                "%-40s %3d topics, database %s%n",
                                e.name().substring(DRILL_PREFIX.length()), e.topics(), e.database() ? "yes" : "no"));
        return 0;
    }

    /** {@code replay clean --as DRILL}: its topics, consumer groups, Redis keys and database. */
    public static int clean(Settings base, Flags f, PrintStream out) {
        KafkaClients.require(base, "run ./seckill up");
        String name = DRILL_PREFIX + drillName(f);
        new Namespaces(base).settingsOf(name);
        for (String line : new Namespaces(base).clean(name)) out.println("removed " + line);
        return 0;
    }

    /** {@code replay --as DRILL ...}: a window of the commands decided again in a drill namespace, diffed. */
    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        KafkaClients.require(base, "run ./seckill up");
        Settings source = NamespaceCommands.chosen(base, f);
        String name = DRILL_PREFIX + drillName(f);
        if (new Namespaces(base).list().stream().anyMatch(e -> e.name().equals(name))) {
            throw new Flags.UsageError("drill '" + drillName(f) + "' exists: ./seckill replay clean --as "
                    + drillName(f) + " first, or pick another name");
        }
        Set<Long> goods = f.has("goods")
                ? Arrays.stream(f.get("goods", "").split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .map(Long::parseLong)
                        .collect(Collectors.toCollection(TreeSet::new))
                : Set.of();
        ReplayDrill.Options o = new ReplayDrill.Options(
                new CommandWindow(f.get("from", "earliest"), f.get("to", "latest")),
                goods,
                f.has("stock") ? f.getLong("stock", 0) : null,
                f.has("limit") ? (int) f.getLong("limit", 1) : null,
                speed(f.get("speed", "max")));
        Namespace drill = Namespace.create(base, name);
        out.printf(
                "drill %s: %s*commands [%s, %s) -> %s*, Redis %s*, database %s%n",
                drillName(f),
                source.topicPrefix(),
                o.window().from(),
                o.window().to(),
                drill.settings().topicPrefix(),
                drill.settings().redisPrefix(),
                drill.database());
        long[] copied = {0};
        ReplayDrill.Result r = new ReplayDrill(source, drill)
                .run(
                        o,
                        n -> {
                            if (n % 1000 == 0) out.printf("\rcopying    %,d records", copied[0] = n);
                        },
                        n -> {
                            if (n % 1000 == 0) out.printf("\rdeciding   %,d purchases", n);
                        });
        out.printf(
                "%ncopied %,d commands (%,d purchases), all decided %.1f s after the drill's pipeline was up: %,.0f decisions/s%n",
                r.copied(), r.purchases(), r.took().toMillis() / 1000.0, r.decisionsPerSecond());
        out.printf(
                "identical %,d   differing %,d%s%n",
                r.identical(),
                r.differences().size(),
                r.shifted() > 0 ? "   same outcome, other stock after " + r.shifted() : "");
        r.differences().stream().limit(SHOWN).forEach(d -> out.println("  " + d.requestId() + ": " + d.why()));
        if (r.differences().size() > SHOWN)
            out.println("  ... and " + (r.differences().size() - SHOWN) + " more");
        if (!r.goodsWithoutOpen().isEmpty()) {
            out.println("note: the window holds no open_sale of goods " + r.goodsWithoutOpen()
                    + ": widen --from to include it");
        }
        out.println("remove it with: ./seckill replay clean --as " + drillName(f));
        return r.differences().isEmpty() || f.has("stock") || f.has("limit") ? 0 : 1;
    }

    private static String drillName(Flags f) {
        String name = f.get("as", "");
        if (!name.matches("[A-Za-z0-9_-]{1,40}"))
            throw new Flags.UsageError("--as needs a drill name of 1-40 [A-Za-z0-9_-]");
        return name;
    }

    /** {@code max} (0: as fast as it goes), {@code 1x}, {@code 10x}, ... */
    static double speed(String s) {
        if (s.equals("max")) return 0;
        try {
            double v = Double.parseDouble(s.endsWith("x") ? s.substring(0, s.length() - 1) : s);
            if (v > 0) return v;
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new Flags.UsageError("--speed is max or a factor such as 1x or 10x, not '" + s + "'");
    }
}
