package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.infra.harness.ProgressBar;
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
    public static int list(Settings base, Flags f, PrintStream out) {
        KafkaClients.require(base, "run ./seckill up");
        var drills = new Namespaces(base)
                .list().stream().filter(e -> e.name().startsWith(DRILL_PREFIX)).toList();
        if (f.has("json")) {
            var doc = Json.MAPPER.createArrayNode();
            for (var e : drills)
                doc.addObject()
                        .put("drill", e.name().substring(DRILL_PREFIX.length()))
                        .put("namespace", e.name())
                        .put("topics", e.topics())
                        .put("database", e.database());
            out.println(JsonOutput.render(doc));
            return 0;
        }
        drills.forEach(e -> out.printf(
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
                new CommandWindow(f.get("from"), f.get("to")),
                goods,
                f.has("stock") ? f.getLong("stock", 0) : null,
                f.has("limit") ? (int) f.getLong("limit", 1) : null,
                speed(f.get("speed")));
        Namespace drill = Namespace.create(base, name);
        // with --json stdout is the document only: what the drill does goes to stderr
        PrintStream say = f.has("json") ? System.err : out;
        say.printf(
                "drill %s: %s*commands [%s, %s) -> %s*, Redis %s*, database %s%n",
                drillName(f),
                source.topicPrefix(),
                o.window().from(),
                o.window().to(),
                drill.settings().topicPrefix(),
                drill.settings().redisPrefix(),
                drill.database());
        ProgressBar copying = ProgressBar.counting("copying", "records");
        ProgressBar deciding = ProgressBar.counting("deciding", "purchases");
        ReplayDrill.Result r = new ReplayDrill(source, drill).run(o, copying::update, n -> {
            copying.finish(0);
            deciding.update(n);
        });
        copying.finish(0);
        deciding.finish(0);
        if (f.has("json")) out.println(json(drillName(f), r));
        else out.print(text(r));
        if (!r.goodsWithoutOpen().isEmpty()) {
            say.println("note: the window holds no open_sale of goods " + r.goodsWithoutOpen()
                    + ": widen --from to include it");
        }
        say.println("remove it with: ./seckill replay clean --as " + drillName(f));
        return r.differences().isEmpty() || f.has("stock") || f.has("limit") ? 0 : 1;
    }

    /** The comparison as text: the counts, then the first differences, each with why. */
    static String text(ReplayDrill.Result r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                "copied %,d commands (%,d purchases), all decided %.1f s after the drill's pipeline was up: %,.0f decisions/s%n",
                r.copied(), r.purchases(), r.took().toMillis() / 1000.0, r.decisionsPerSecond()));
        b.append(String.format(
                "identical %,d   differing %,d%s%n",
                r.identical(),
                r.differences().size(),
                r.shifted() > 0 ? "   same outcome, other stock after " + r.shifted() : ""));
        r.differences().stream().limit(SHOWN).forEach(d -> b.append("  " + d.requestId() + ": " + d.why() + "\n"));
        if (r.differences().size() > SHOWN)
            b.append("  ... and " + (r.differences().size() - SHOWN) + " more\n");
        return b.toString();
    }

    /** {@code replay --json}: the same comparison, every difference with both outcomes. */
    static String json(String drill, ReplayDrill.Result r) {
        ObjectNode root = JsonOutput.object();
        root.put("drill", drill);
        root.put("copied", r.copied());
        root.put("purchases", r.purchases());
        root.put("tookMs", r.took().toMillis());
        root.put("decisionsPerSecond", Math.round(r.decisionsPerSecond()));
        root.put("identical", r.identical());
        root.put("differing", r.differences().size());
        root.put("shifted", r.shifted());
        ArrayNode differences = root.putArray("differences");
        for (ReplayDrill.Difference d : r.differences()) {
            ObjectNode n = differences.addObject().put("requestId", d.requestId());
            n.set("recorded", d.recorded() == null ? null : JsonOutput.tree(d.recorded()));
            n.set("drill", d.drill() == null ? null : JsonOutput.tree(d.drill()));
            n.put("why", d.why());
        }
        root.set("goodsWithoutOpen", JsonOutput.tree(r.goodsWithoutOpen()));
        return JsonOutput.render(root);
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
