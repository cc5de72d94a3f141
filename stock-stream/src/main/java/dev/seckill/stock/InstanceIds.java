package dev.seckill.stock;

import dev.seckill.kit.config.Settings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * The stream instance's id (static membership, stable transactional ids: {@link StableTransactionalIds}). A service
 * started without one gets {@code <host name>-<metrics port>}: stable across restarts on one machine or pod, and
 * distinct between two instances of one host (their metrics ports differ, or they could not both listen). So a
 * restart in place — {@code ./seckill run stock-stream} again, a container restarted — takes its partitions back at
 * once and fences its predecessor's transaction at once. {@code dynamic}, or metrics on any free port (0): no id
 * (dynamic membership). Only the
 * service's {@code main} defaults it: an app built in-process (tests, the warm-up) keeps what its settings say.
 */
final class InstanceIds {
    static final String DYNAMIC = "dynamic";

    private InstanceIds() {}

    /** The id the settings give, or empty for dynamic membership. */
    static String of(Settings settings) {
        String id = settings.get(StockStreamSettings.INSTANCE_ID).trim();
        return id.equalsIgnoreCase(DYNAMIC) ? "" : id;
    }

    /** The settings with the service's default id when none is given. */
    static Settings withDefault(Settings settings) {
        if (!settings.get(StockStreamSettings.INSTANCE_ID).isBlank()) return settings;
        int port = settings.get(StockStreamSettings.METRICS_PORT);
        if (port == 0) return settings; // any free port: nothing tells two instances of one host apart, so no id
        String id = host() + "-" + port;
        return settings.and(Map.of(StockStreamSettings.INSTANCE_ID.name(), id));
    }

    private static String host() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                name = "stock-stream";
            }
        }
        return name.replaceAll("[^A-Za-z0-9._-]", "-");
    }
}
