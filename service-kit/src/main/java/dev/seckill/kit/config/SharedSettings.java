package dev.seckill.kit.config;

import dev.seckill.contracts.redis.KeyLifetime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The settings more than one service reads: where Kafka, Redis and the database are, the namespace prefixes, the
 * consumer groups the reconciler watches and how long a sale's Redis keys live. Each service's own settings are in its
 * module ({@code GatewaySettings}, {@code StockStreamSettings}, {@code OrderWriterSettings}, {@code ReconcilerSettings}).
 */
public final class SharedSettings {
    private SharedSettings() {}

    public static final Setting<String> KAFKA_BOOTSTRAP =
            Setting.text(Settings.KAFKA_BOOTSTRAP, "127.0.0.1:19092", "Kafka bootstrap servers (host:port,host:port)");
    public static final Setting<String> REDIS_URL =
            Setting.text(Settings.REDIS_URL, "redis://127.0.0.1:6379", "the standalone Redis server");
    public static final Setting<String> REDIS_CLUSTER = Setting.text(
            Settings.REDIS_CLUSTER,
            "",
            "seed nodes host:port,host:port: when set, Redis Cluster instead of the standalone server");
    public static final Setting<String> DB_URL = Setting.text(
            Settings.DB_URL,
            "jdbc:mysql://127.0.0.1:3306/seckill?createDatabaseIfNotExist=true",
            "the MySQL-compatible database (JDBC URL)");
    public static final Setting<String> DB_USER = Setting.text(Settings.DB_USER, "root", "the database user");
    public static final Setting<String> DB_PASSWORD =
            Setting.secret(Settings.DB_PASSWORD, 0, "the database user's password (a placeholder is refused)");
    public static final Setting<String> TOPIC_PREFIX = Setting.text(
            Settings.TOPIC_PREFIX, "seckill.", "prefix of every topic (and of the default consumer-group ids)");
    public static final Setting<String> REDIS_PREFIX =
            Setting.text(Settings.REDIS_PREFIX, "seckill:", "prefix of every Redis key");
    public static final Setting<Long> SALE_KEY_GRACE_MS = Setting.number(
            KeyLifetime.GRACE_SETTING,
            KeyLifetime.DEFAULT_GRACE.toMillis(),
            "a sale's Redis keys expire this long after the later of its end and their writing (stock-stream writes them "
                    + "so, the reconciler reports a goods past it ENDED)");
    public static final Setting<String> COMMANDS_TIMESTAMPS = Setting.text(
            "topics.commands.timestamps",
            "LogAppendTime",
            "the commands topic's record times when it is created (message.timestamp.type): LogAppendTime, the broker's "
                    + "clock, which closes drawn windows whatever a producer's clock says; CreateTime only for a drill "
                    + "namespace that copies a recording with its recorded times");
    public static final Setting<Integer> TOPIC_PARTITIONS = Setting.integer(
            "topic.partitions",
            12,
            "partitions of each pipeline topic a service, demo, drill, benchmark or acls --apply creates when it is"
                    + " missing (a topic that exists keeps its own count); a goods has at most one bucket per partition");
    public static final Setting<String> STREAM_APPLICATION_ID = Setting.text(
            "stream.application.id",
            s -> s.topicPrefix() + "stock-stream",
            "<topic prefix>stock-stream",
            "stock-stream's Kafka Streams application.id (its consumer group; the reconciler reads its lag)");
    public static final Setting<String> GATEWAY_STATUS_GROUP_ID = Setting.text(
            "gateway.status.group.id",
            s -> s.topicPrefix() + "gateway-status",
            "<topic prefix>gateway-status",
            "the gateways' shared consumer group that indexes every outcome into the purchase status store");
    public static final Setting<String> WRITER_GROUP_ID = Setting.text(
            "writer.group.id",
            s -> s.topicPrefix() + "order-writer",
            "<topic prefix>order-writer",
            "order-writer's consumer group (the reconciler reads its lag)");

    public static final Setting<String> ADMIN_HOST = Setting.text(
            "admin.host",
            "127.0.0.1",
            "the address each service's /health, /live and /metrics listen on (0.0.0.0 in a container: a kubelet probes "
                    + "and Prometheus scrapes the pod's own address); the gateway's purchases (and its public /health and "
                    + "/live) listen on SECKILL_GATEWAY_HOST");

    public static final Setting<Long> START_WAIT_MS = Setting.number(
            "start.wait.ms",
            0,
            "how long a service waits at its start for Kafka, Redis and the database to accept connections, saying once"
                    + " on stderr what it waits for, before it stops with one line (0: it stops at once); the images"
                    + " set 120000, as their servers start beside them (an orchestrator restarting a service that"
                    + " stopped at once starts a JVM a second on a host whose servers are still starting)");

    public static final Setting<String> TRACE_OTLP_ENDPOINT = Setting.text(
            "trace.otlp.endpoint",
            "",
            "where every service exports its spans over OTLP/HTTP (e.g. http://127.0.0.1:4318/v1/traces); empty: no spans"
                    + " are made, and W3C traceparent is still carried from the request to the order row");

    public static final Setting<String> TRACE_SAMPLE_RATIO = Setting.text(
            "trace.sample.ratio",
            "1",
            "with tracing on, the share of new traces kept (0..1; a request whose traceparent says sampled, or not, is"
                    + " followed): a span per command costs the gateway about half its closed-loop throughput"
                    + " (docs/performance.md)");

    public static List<Setting<?>> all() {
        return Setting.declaredIn(SharedSettings.class);
    }

    /** The sale keys' lifetime rule with the configured grace ({@link #SALE_KEY_GRACE_MS}), on the system clock. */
    public static KeyLifetime keyLifetime(Settings settings) {
        return new KeyLifetime(Duration.ofMillis(settings.get(SALE_KEY_GRACE_MS)), Clock.systemUTC());
    }
}
