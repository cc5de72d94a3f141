package dev.seckill.kit.config;

/** Consumer-group ids of the services, derived from the topic prefix (so the reconciler can read their lag). */
public final class GroupIds {
    private GroupIds() {}

    /** stock-stream's Kafka Streams application.id (also its consumer group). */
    public static String stockStream(Settings s) {
        return s.get(SharedSettings.STREAM_APPLICATION_ID);
    }

    /** The gateways' shared group that writes every outcome into the purchase status store. */
    public static String gatewayStatus(Settings s) {
        return s.get(SharedSettings.GATEWAY_STATUS_GROUP_ID);
    }

    public static String orderWriter(Settings s) {
        return s.get(SharedSettings.WRITER_GROUP_ID);
    }
}
