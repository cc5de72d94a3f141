package dev.seckill.kit.redis;

import dev.seckill.kit.config.RedisSettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import java.io.File;
import java.net.URI;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Opens the Redis client chosen by configuration: a Redis Cluster when {@code SECKILL_REDIS_CLUSTER} lists
 * seed nodes ({@code host:port,host:port}), a standalone server at {@code SECKILL_REDIS_URL} otherwise. Both are
 * {@link UnifiedJedis}, so callers are the same for both. Both authenticate and speak TLS as {@link RedisSettings}
 * say (or, for a standalone server, as its URL says: {@code rediss://user:password@host:port/db}).
 */
public final class RedisConnections {
    private RedisConnections() {}

    public static UnifiedJedis open(Settings settings) {
        String cluster = settings.redisCluster();
        if (cluster != null && !cluster.isBlank()) {
            Set<HostAndPort> nodes = Arrays.stream(cluster.split(","))
                    .map(String::trim)
                    .map(HostAndPort::from)
                    .collect(Collectors.toSet());
            JedisClientConfig config = config(settings, null, "SECKILL_REDIS_CLUSTER");
            Unreachable.requireTcp("Redis Cluster", cluster, "check SECKILL_REDIS_CLUSTER");
            return RedisClusterClient.builder()
                    .nodes(nodes)
                    .clientConfig(config)
                    .build();
        }
        return openUrl(settings, settings.redisUrl(), "SECKILL_REDIS_URL");
    }

    /**
     * A standalone Redis at {@code url} with the credentials and TLS of {@code settings} (one readable line when it is
     * not there or the URL is not one, naming {@code variable}, the setting it came from; never its password).
     */
    public static UnifiedJedis openUrl(Settings settings, String url, String variable) {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            u = null;
        }
        if (u == null || !JedisURIHelper.isValid(u))
            throw new IllegalArgumentException(variable
                    + " is not a Redis URL (redis://host:port or rediss://host:port): " + withoutPassword(url));
        JedisClientConfig config = config(settings, u, variable);
        HostAndPort at = JedisURIHelper.getHostAndPort(u);
        Unreachable.requireTcp("Redis", at.getHost() + ":" + at.getPort(), "start it or set " + variable);
        return RedisClient.builder().hostAndPort(at).clientConfig(config).build();
    }

    /**
     * Makes connections of their own to the standalone Redis the settings name, each under the client name it is given
     * (how {@code CLIENT LIST} shows it: a peer sees it close the moment its process dies); null with a Redis Cluster,
     * whose nodes each list their own clients. Each call opens one (it throws when Redis is not there).
     */
    public static Function<String, Jedis> namedConnections(Settings settings) {
        String cluster = settings.redisCluster();
        if (cluster != null && !cluster.isBlank()) return null;
        URI u = URI.create(settings.redisUrl());
        JedisClientConfig base = config(settings, u, "SECKILL_REDIS_URL");
        HostAndPort at = JedisURIHelper.getHostAndPort(u);
        return name -> new Jedis(
                at,
                DefaultJedisClientConfig.builder()
                        .from(base)
                        .clientName(name)
                        // what the pooled clients speak (a plain connection would warn, then fall back)
                        .protocol(RedisProtocol.RESP2)
                        .build());
    }

    /** The client configuration: the URL's database, credentials and scheme, else the settings'. */
    static JedisClientConfig config(Settings settings, URI url, String where) {
        String user = settings.get(RedisSettings.USER);
        String password = settings.get(RedisSettings.PASSWORD);
        boolean tls = settings.get(RedisSettings.TLS);
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder();
        if (url != null) {
            String urlPassword = JedisURIHelper.getPassword(url);
            if (urlPassword != null && (!password.isEmpty() || !user.isEmpty()))
                throw new IllegalArgumentException(where + " holds credentials and SECKILL_REDIS_USER or"
                        + " SECKILL_REDIS_PASSWORD is set too: set one of them");
            if (urlPassword != null) {
                user = JedisURIHelper.getUser(url) == null ? "" : JedisURIHelper.getUser(url);
                password = urlPassword;
            }
            tls |= JedisURIHelper.isRedisSSLScheme(url);
            b.database(JedisURIHelper.getDBIndex(url));
        }
        if (!user.isEmpty()) b.user(user);
        if (!password.isEmpty()) b.password(password);
        if (tls) b.ssl(true).sslOptions(tls(settings));
        return b.build();
    }

    /** The URL with whatever stands between {@code //} and {@code @} masked: a password never reaches a message. */
    static String withoutPassword(String url) {
        int start = url.indexOf("//");
        int at = url.lastIndexOf('@');
        return start >= 0 && at > start ? url.substring(0, start + 2) + "***" + url.substring(at) : url;
    }

    private static SslOptions tls(Settings settings) {
        SslOptions.Builder o = SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL);
        String truststore = settings.get(RedisSettings.TLS_TRUSTSTORE);
        if (!truststore.isEmpty())
            o.truststore(
                    readable(truststore, RedisSettings.TLS_TRUSTSTORE.env()),
                    settings.get(RedisSettings.TLS_TRUSTSTORE_PASSWORD).toCharArray());
        String keystore = settings.get(RedisSettings.TLS_KEYSTORE);
        if (!keystore.isEmpty())
            o.keystore(
                    readable(keystore, RedisSettings.TLS_KEYSTORE.env()),
                    settings.get(RedisSettings.TLS_KEYSTORE_PASSWORD).toCharArray());
        return o.build();
    }

    private static File readable(String path, String variable) {
        File f = new File(path);
        if (!f.canRead()) throw new IllegalArgumentException(variable + ": cannot read " + path);
        return f;
    }
}
