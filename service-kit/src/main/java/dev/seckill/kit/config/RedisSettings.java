package dev.seckill.kit.config;

import java.util.List;
import java.util.Map;

/**
 * How every Redis client of the services and the tools authenticates and encrypts, beside {@link
 * SharedSettings#REDIS_URL} / {@link SharedSettings#REDIS_CLUSTER}: an ACL user and its password (Redis 6+
 * {@code AUTH user password}; a password alone is the {@code default} user's, as {@code requirepass} sets it) and TLS
 * (a {@code rediss://} URL or {@link #TLS} for a cluster) with the server's certificate checked against a truststore
 * and its host name, and optionally a client certificate. {@code dev.seckill.kit.redis.RedisConnections} reads them.
 * Credentials written in the URL ({@code redis://user:password@host}) are refused when these are set too: one place
 * for one credential.
 */
public final class RedisSettings {
    private RedisSettings() {}

    public static final Setting<String> USER =
            Setting.text("redis.user", "", "the Redis ACL user the clients authenticate as (empty: the default user)");
    public static final Setting<String> PASSWORD = Setting.secret(
            "redis.password",
            0,
            "the Redis user's password (empty: none; a placeholder is refused; SECKILL_REDIS_PASSWORD_FILE reads it from"
                    + " a mounted secret)");
    public static final Setting<Boolean> TLS = Setting.flag(
            "redis.tls",
            false,
            "speak TLS to Redis (a rediss:// URL turns it on too); the server's certificate must be signed by a CA of"
                    + " the truststore and name the host");
    public static final Setting<String> TLS_TRUSTSTORE = Setting.text(
            "redis.tls.truststore",
            "",
            "a truststore file (PKCS12 or JKS) with the CA that signed Redis's certificate (empty: the JVM's CAs)");
    public static final Setting<String> TLS_TRUSTSTORE_PASSWORD =
            Setting.secret("redis.tls.truststore.password", 0, "the truststore's password");
    public static final Setting<String> TLS_KEYSTORE = Setting.text(
            "redis.tls.keystore",
            "",
            "a keystore file (PKCS12 or JKS) with this client's certificate and key, for a Redis started with"
                    + " tls-auth-clients yes (empty: none)");
    public static final Setting<String> TLS_KEYSTORE_PASSWORD =
            Setting.secret("redis.tls.keystore.password", 0, "the keystore's password");

    /** The environment that gives a process started by a tool the same Redis credentials and TLS as {@code settings}. */
    public static Map<String, String> environment(Settings settings) {
        return settings.environmentOf(all());
    }

    public static List<Setting<?>> all() {
        return Setting.declaredIn(RedisSettings.class);
    }
}
