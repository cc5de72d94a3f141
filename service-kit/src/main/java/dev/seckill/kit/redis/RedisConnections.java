package dev.seckill.kit.redis;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import java.net.URI;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Opens the Redis client chosen by configuration: a Redis Cluster when {@code SECKILL_REDIS_CLUSTER} lists
 * seed nodes ({@code host:port,host:port}), a standalone server at {@code SECKILL_REDIS_URL} otherwise. Both are
 * {@link UnifiedJedis}, so callers are the same for both.
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
            Unreachable.requireTcp("Redis Cluster", cluster, "check SECKILL_REDIS_CLUSTER");
            return RedisClusterClient.create(nodes);
        }
        Unreachable.requireRedis(settings.redisUrl());
        return RedisClient.create(URI.create(settings.redisUrl()));
    }

    /** A standalone Redis at {@code url} (one readable line when it is not there: {@code hint} says which setting). */
    public static UnifiedJedis openUrl(String url, String hint) {
        URI u = URI.create(url);
        Unreachable.requireTcp("Redis", u.getHost() + ":" + (u.getPort() < 0 ? 6379 : u.getPort()), hint);
        return RedisClient.create(u);
    }
}
