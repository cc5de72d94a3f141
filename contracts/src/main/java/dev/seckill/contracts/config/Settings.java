package dev.seckill.contracts.config;

import java.util.Map;
import java.util.Optional;

/**
 * Configuration from (highest first) JVM system properties {@code seckill.x.y}, environment variables
 * {@code SECKILL_X_Y}, then the local defaults below, which match a machine running {@code ./seckill up}.
 */
public final class Settings {
    public static final String KAFKA_BOOTSTRAP = "kafka.bootstrap";
    public static final String REDIS_URL = "redis.url";
    public static final String REDIS_CLUSTER = "redis.cluster";
    public static final String DB_URL = "db.url";
    public static final String DB_USER = "db.user";
    public static final String DB_PASSWORD = "db.password";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String REDIS_PREFIX = "redis.prefix";

    private static final Map<String, String> DEFAULTS = Map.of(
            KAFKA_BOOTSTRAP, "127.0.0.1:19092",
            REDIS_URL, "redis://127.0.0.1:6379",
            REDIS_CLUSTER, "",
            DB_URL, "jdbc:mysql://127.0.0.1:3306/seckill?createDatabaseIfNotExist=true",
            DB_USER, "root",
            DB_PASSWORD, "",
            TOPIC_PREFIX, "seckill.",
            REDIS_PREFIX, "seckill:");

    private final Map<String, String> overrides;

    private Settings(Map<String, String> overrides) { this.overrides = overrides; }

    public static Settings fromEnvironment() { return new Settings(Map.of()); }

    /** Settings with explicit values winning over properties, environment and defaults (tests, drills). */
    public static Settings with(Map<String, String> overrides) { return new Settings(Map.copyOf(overrides)); }

    public Settings and(Map<String, String> more) {
        var merged = new java.util.HashMap<>(overrides);
        merged.putAll(more);
        return new Settings(Map.copyOf(merged));
    }

    public String get(String key) { return find(key).orElse(DEFAULTS.getOrDefault(key, "")); }

    public String get(String key, String fallback) { return find(key).orElse(fallback); }

    public int getInt(String key, int fallback) { return find(key).map(Integer::parseInt).orElse(fallback); }

    public long getLong(String key, long fallback) { return find(key).map(Long::parseLong).orElse(fallback); }

    public boolean getBoolean(String key, boolean fallback) { return find(key).map(Boolean::parseBoolean).orElse(fallback); }

    private Optional<String> find(String key) {
        if (overrides.containsKey(key)) return Optional.of(overrides.get(key));
        String prop = System.getProperty("seckill." + key);
        if (prop != null) return Optional.of(prop);
        String env = System.getenv("SECKILL_" + key.toUpperCase().replace('.', '_'));
        return Optional.ofNullable(env);
    }

    public String kafkaBootstrap() { return get(KAFKA_BOOTSTRAP); }
    public String topicPrefix() { return get(TOPIC_PREFIX); }
    public String redisPrefix() { return get(REDIS_PREFIX); }
    public String redisUrl() { return get(REDIS_URL); }
    public String redisCluster() { return get(REDIS_CLUSTER); }
    public String dbUrl() { return get(DB_URL); }
    public String dbUser() { return get(DB_USER); }
    public String dbPassword() { return get(DB_PASSWORD); }
}
