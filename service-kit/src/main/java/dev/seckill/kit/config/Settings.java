package dev.seckill.kit.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Configuration from (highest first) JVM system properties {@code seckill.x.y}, environment variables
 * {@code SECKILL_X_Y}, then the setting's default (for the shared ones in {@link SharedSettings}, those of a machine
 * running {@code ./seckill up}). Every setting is declared once as a {@link Setting} and read with {@link #get(Setting)};
 * the names below are the keys of the shared connection settings, for {@link #with(Map)} overrides.
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

    private final Map<String, String> overrides;

    private Settings(Map<String, String> overrides) {
        this.overrides = overrides;
    }

    public static Settings fromEnvironment() {
        return new Settings(Map.of());
    }

    /** Settings with explicit values winning over properties, environment and defaults (tests, drills). */
    public static Settings with(Map<String, String> overrides) {
        return new Settings(Map.copyOf(overrides));
    }

    public Settings and(Map<String, String> more) {
        var merged = new HashMap<>(overrides);
        merged.putAll(more);
        return new Settings(Map.copyOf(merged));
    }

    /** The setting's value: set (override, property, environment) or its default. */
    public <T> T get(Setting<T> setting) {
        return setting.read(this);
    }

    /**
     * True when the setting has a value of its own (override, property or environment, or for a secret the file its
     * {@code _FILE} variable names), not its default.
     */
    public boolean isSet(Setting<?> setting) {
        return find(setting.name()).isPresent()
                || (setting.isSecret() && find(setting.name() + ".file").isPresent());
    }

    /**
     * The environment variables that give a child process each of {@code settings} that is set here, as set here (a
     * secret set by its {@code _FILE} as that file).
     */
    public Map<String, String> environmentOf(List<Setting<?>> settings) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            if (!isSet(s)) continue;
            Optional<String> file = s.isSecret() ? find(s.name() + ".file") : Optional.empty();
            // a secret read from a file is passed on as its file: its value stays out of the child's environment, and
            // the child does not see the value and the inherited _FILE both set
            if (file.isPresent() && find(s.name()).isEmpty()) env.put(s.env() + "_FILE", file.get());
            else env.put(s.env(), String.valueOf(get(s)));
        }
        return env;
    }

    Optional<String> find(String key) {
        if (overrides.containsKey(key)) return Optional.of(overrides.get(key));
        String prop = System.getProperty("seckill." + key);
        if (prop != null) return Optional.of(prop);
        String env = System.getenv(Setting.envOf(key));
        return Optional.ofNullable(env);
    }

    /** The members of a family set here: environment, then JVM properties, then overrides (each winning over the last). */
    Map<String, String> family(SettingFamily family) {
        Map<String, String> members = new TreeMap<>();
        String env = family.envPrefix();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith(env) && k.length() > env.length())
                members.put(SettingFamily.memberOfEnv(k.substring(env.length())), v);
        });
        String prop = "seckill." + family.name() + ".";
        for (String k : System.getProperties().stringPropertyNames())
            if (k.startsWith(prop) && k.length() > prop.length())
                members.put(k.substring(prop.length()), System.getProperty(k));
        String key = family.name() + ".";
        overrides.forEach((k, v) -> {
            if (k.startsWith(key) && k.length() > key.length()) members.put(k.substring(key.length()), v);
        });
        return members;
    }

    public String kafkaBootstrap() {
        return get(SharedSettings.KAFKA_BOOTSTRAP);
    }

    public String topicPrefix() {
        return get(SharedSettings.TOPIC_PREFIX);
    }

    public String redisPrefix() {
        return get(SharedSettings.REDIS_PREFIX);
    }

    public String redisUrl() {
        return get(SharedSettings.REDIS_URL);
    }

    public String redisCluster() {
        return get(SharedSettings.REDIS_CLUSTER);
    }

    public String dbUrl() {
        return get(SharedSettings.DB_URL);
    }

    public String dbUser() {
        return get(SharedSettings.DB_USER);
    }

    public String dbPassword() {
        return get(SharedSettings.DB_PASSWORD);
    }
}
