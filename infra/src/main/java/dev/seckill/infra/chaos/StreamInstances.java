package dev.seckill.infra.chaos;

import dev.seckill.infra.harness.ServedStrategy;
import dev.seckill.infra.harness.StreamGroup;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import java.io.PrintStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stock-stream group as the chaos run sees it from outside: more instances started beside the first (the
 * manifests' shape), and which instance owns the sale's partition now — the one a kill must hit to be felt.
 */
final class StreamInstances {
    /** A service's default instance id is {@code <host>-<metrics port>}, and its /health answers on that port. */
    private static final Pattern PORT = Pattern.compile("-([0-9]+)$");

    private StreamInstances() {}

    /** Starts {@code more} instances beside the first, waits until each is healthy and the group is stable with all. */
    static void startMore(ServedStrategy pipeline, Settings s, int more, PrintStream out) throws Exception {
        if (more <= 0) return;
        for (int i = 0; i < more; i++) {
            String name = pipeline.startStreamInstance();
            out.printf("   %s started: /health 200 after %,d ms%n", name, pipeline.awaitHealthy(name));
        }
        try (StreamGroup group = new StreamGroup(s)) {
            long ms = ChaosTarget.await(() -> group.stableInstances().size() == more + 1, 120);
            if (ms < 0)
                throw new IllegalStateException("the stock-stream group never became stable with " + (more + 1));
            out.printf("   the stock-stream group is stable with %d instances%n", more + 1);
        }
    }

    /**
     * A member owning the sale's partition: its part ({@code stock-stream}, {@code stock-stream-N}; null when no part
     * listens on its port) and its instance id ({@code stream.instance.id}: its client id {@code <group>-<instance>}
     * without the group).
     */
    record Owner(String part, String instance) {}

    /** The member whose consumer owns the commands partition of {@code goods}; null while none does (a rebalance). */
    static Owner ownerOf(ServedStrategy pipeline, Settings s, long goods) throws Exception {
        try (StreamGroup group = new StreamGroup(s)) {
            String owner = group.ownerOf(goods);
            if (owner == null) return null;
            Matcher port = PORT.matcher(owner);
            String prefix = GroupIds.stockStream(s) + "-";
            return new Owner(
                    port.find() ? pipeline.partOnPort(Integer.parseInt(port.group(1))) : null,
                    owner.startsWith(prefix) ? owner.substring(prefix.length()) : owner);
        }
    }
}
