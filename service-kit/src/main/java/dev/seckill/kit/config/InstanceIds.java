package dev.seckill.kit.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * A service instance's id: for the order-writer its static group membership (a restarted instance takes its
 * partitions back at once instead of after the session of its dead self); for stock-stream the stable part of its
 * transactional and client ids (a restart fences its predecessor's transaction, a survivor a dropped peer's). A service started without one gets {@code <host name>-<metrics port>}: stable across restarts on one machine
 * or pod, distinct for two instances of one host (their metrics ports differ, or they could not both listen).
 * {@code dynamic}, or metrics on any free port (0, nothing tells two instances apart): no id, dynamic membership. Only
 * a service's {@code main} defaults it: what is built in-process (tests, warm-ups) keeps what its settings say.
 */
public final class InstanceIds {
    public static final String DYNAMIC = "dynamic";

    private InstanceIds() {}

    /** The id the setting gives, or empty for dynamic membership. */
    public static String of(Settings settings, Setting<String> id) {
        String given = settings.get(id).trim();
        return given.equalsIgnoreCase(DYNAMIC) ? "" : given;
    }

    /** The settings with {@code <host>-<metrics port>} as the id when none is given (and the port is fixed). */
    public static Settings withDefault(Settings settings, Setting<String> id, Setting<Integer> metricsPort) {
        if (!settings.get(id).isBlank()) return settings;
        int port = settings.get(metricsPort);
        if (port == 0) return settings;
        return settings.and(Map.of(id.name(), host() + "-" + port));
    }

    private static String host() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                name = "localhost";
            }
        }
        return name.replaceAll("[^A-Za-z0-9._-]", "-");
    }
}
