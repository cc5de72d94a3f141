package dev.seckill.contracts.config;

/**
 * How much each service warms itself before it reports ready (docs/decisions.md, "Warm-up before ready"): every
 * warm-up setting is read here and nowhere else. {@code 0} turns a service's warm-up off.
 */
public final class WarmupSettings {
    /** Purchases the gateway sends through its own door (a warm-up door: its own topic, keys and token key). */
    public static final String GATEWAY_REQUESTS = "gateway.warmup.requests";
    /** Commands a warm-up stock-stream app decides on a namespace of its own before the service reports ready. */
    public static final String STREAM_COMMANDS = "stream.warmup.commands";

    private WarmupSettings() {}

    public static int gatewayRequests(Settings s) { return Math.max(0, s.getInt(GATEWAY_REQUESTS, 20_000)); }

    public static int streamCommands(Settings s) { return Math.max(0, s.getInt(STREAM_COMMANDS, 20_000)); }
}
