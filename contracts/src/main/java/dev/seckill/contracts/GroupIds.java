package dev.seckill.contracts;

import dev.seckill.contracts.config.Settings;

/** Consumer-group ids of the services, derived from the topic prefix (so the reconciler can read their lag). */
public final class GroupIds {
    private GroupIds() {}

    /** stock-stream's Kafka Streams application.id (also its consumer group). */
    public static String stockStream(Settings s) { return s.get("stream.application.id", s.topicPrefix() + "stock-stream"); }

    /** The gateways' shared group that writes every outcome into the purchase status store. */
    public static String gatewayStatus(Settings s) { return s.get("gateway.status.group.id", s.topicPrefix() + "gateway-status"); }

    public static String orderWriter(Settings s) { return s.get("writer.group.id", s.topicPrefix() + "order-writer"); }
}
