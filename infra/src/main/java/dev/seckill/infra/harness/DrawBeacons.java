package dev.seckill.infra.harness;

import dev.seckill.kit.config.Settings;
import dev.seckill.stock.StockStreamSettings;
import dev.seckill.stock.draw.beacon.BeaconChain;
import dev.seckill.stock.draw.beacon.Beacons;
import dev.seckill.stock.draw.beacon.LocalBeacon;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The draw beacon of the streams the tools start — a drill's or a benchmark's pipeline, the stack's process — when the
 * settings name none ({@code SECKILL_STREAM_DRAW_BEACON} unset): this machine's local beacon, whose key is kept in
 * {@code <home>/services/draw-beacon.key} (owner-only), so the stack's stream, a drill and {@code draw verify} all see
 * the same chain. These machines reach no drand relay; a deployment that does names {@code quicknet}.
 */
public final class DrawBeacons {
    private static final Map<Path, LocalBeacon> IN_PROCESS = new HashMap<>();

    private DrawBeacons() {}

    /** Where this machine's local beacon keeps its key. */
    public static Path keyFile(Settings s) {
        return Path.of(s.get(ToolSettings.HOME))
                .toAbsolutePath()
                .resolve("services")
                .resolve("draw-beacon.key");
    }

    /** The local beacon of this machine, served from this JVM (started once, on any free port). */
    public static synchronized LocalBeacon inProcess(Settings s) {
        Path key = keyFile(s);
        return IN_PROCESS.computeIfAbsent(key, k -> {
            try {
                return LocalBeacon.start(k, 0);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the local draw beacon (" + k + "): " + e.getMessage(), e);
            }
        });
    }

    /** {@code s} with a beacon: the configured one, else this machine's local beacon served from this JVM. */
    public static Settings with(Settings s) {
        if (s.isSet(StockStreamSettings.DRAW_BEACON)) return s;
        return s.and(Map.of(
                StockStreamSettings.DRAW_BEACON.name(),
                "local",
                StockStreamSettings.DRAW_BEACON_URLS.name(),
                inProcess(s).url().toString()));
    }

    /** The environment variables a stream process reads its beacon from: {@code url}'s local beacon. */
    public static Map<String, String> environment(URI url) {
        return Map.of(
                StockStreamSettings.DRAW_BEACON.env(),
                "local",
                StockStreamSettings.DRAW_BEACON_URLS.env(),
                url.toString());
    }

    /**
     * Resolves a chain hash a ledger names: quicknet's built in; the local beacon's of these settings (its relays, or
     * this machine's local beacon); null when neither is that chain.
     */
    public static Function<String, BeaconChain> chains(Settings s) {
        return hash -> {
            if (hash.equals(BeaconChain.QUICKNET.hash())) return BeaconChain.QUICKNET;
            String urls = s.get(StockStreamSettings.DRAW_BEACON_URLS);
            for (String u : urls.split(",")) {
                if (u.isBlank()) continue;
                try {
                    BeaconChain c = Beacons.localChainFrom(URI.create(u.trim()));
                    if (c.hash().equals(hash)) return c;
                } catch (RuntimeException unreachable) {
                    // try the next, then this machine's
                }
            }
            try {
                BeaconChain local = LocalBeacon.chainOf(keyFile(s)); // read from its key: nothing served
                return local.hash().equals(hash) ? local : null;
            } catch (IOException e) {
                return null;
            }
        };
    }
}
