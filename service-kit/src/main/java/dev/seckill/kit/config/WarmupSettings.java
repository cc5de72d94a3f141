package dev.seckill.kit.config;

import java.util.List;

/**
 * How much each service warms itself before it reports ready (docs/decisions.md, "Warm-up before ready"): every
 * warm-up setting is declared here. {@code 0} turns a service's warm-up off.
 */
public final class WarmupSettings {
    public static final Setting<Integer> GATEWAY_REQUESTS = Setting.integer(
            "gateway.warmup.requests",
            20_000,
            "purchases the gateway sends through a warm-up door of its own (own topic, keys, token key) before /health says UP; 0: none");
    public static final Setting<Integer> STREAM_COMMANDS = Setting.integer(
            "stream.warmup.commands",
            20_000,
            "commands a warm-up stock-stream app decides on a namespace of its own before /health says UP; 0: none");

    public static final Setting<Long> LIVE_WINDOW_MS = Setting.number(
            "warmup.live.window.ms",
            60_000,
            "a service that starts while the newest command on the commands topic (a purchase, an opening, a payment) is younger than this (a restart mid-sale) serves at once without its warm-up; 0: always warm up");

    private WarmupSettings() {}

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(WarmupSettings.class);
    }

    public static int gatewayRequests(Settings s) {
        return Math.max(0, s.get(GATEWAY_REQUESTS));
    }

    public static int streamCommands(Settings s) {
        return Math.max(0, s.get(STREAM_COMMANDS));
    }
}
