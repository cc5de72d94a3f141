package dev.seckill.gateway.status;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;

/**
 * The purchase status side of a gateway, wired: its Redis (the stock's, or one of its own when
 * {@code SECKILL_GATEWAY_STATUS_REDIS_URL} is set, so a read flood cannot touch the stock), one call queue per job
 * ({@link PurchaseStatusStore.Lanes}), the store and its {@link StatusIndexer}.
 */
public final class StatusStack implements AutoCloseable {
    private final UnifiedJedis redis;
    private final boolean ownRedis;
    private final PurchaseStatusStore.Lanes lanes;
    private final PurchaseStatusStore store;
    private final StatusIndexer indexer;

    public StatusStack(
            GatewaySettings config,
            UnifiedJedis stockRedis,
            Settings settings,
            String groupId,
            Topics topics,
            RedisKeys keys,
            Clock clock) {
        this.ownRedis = !config.statusRedisUrl().isBlank();
        this.redis = ownRedis
                ? RedisConnections.openUrl(settings, config.statusRedisUrl(), "SECKILL_GATEWAY_STATUS_REDIS_URL")
                : stockRedis;
        this.lanes = new PurchaseStatusStore.Lanes(
                new RedisBatcher(redis, config.statusQueue(), "gateway-status-claims"),
                new RedisBatcher(redis, config.statusQueue(), "gateway-status-reads"),
                new RedisBatcher(redis, config.statusQueue(), "gateway-status-index"));
        Duration decided = Duration.ofMillis(config.statusTtlMs());
        if (config.statusTtlRejectedMs() < config.pendingBoundMs())
            throw new IllegalStateException("SECKILL_GATEWAY_STATUS_TTL_REJECTED_MS (" + config.statusTtlRejectedMs()
                    + ") must be at least SECKILL_GATEWAY_PENDING_BOUND_MS (" + config.pendingBoundMs()
                    + "): a rejected purchase would be told PENDING, then NOT_RECEIVED");
        this.store = new PurchaseStatusStore(
                lanes,
                keys,
                new PurchaseStatusStore.Retention(
                        decided,
                        Duration.ofMillis(config.statusTtlRejectedMs()),
                        Duration.ofMillis(config.pendingBoundMs())),
                clock);
        // a rebuild reads the outcomes of the retention's span, and of the lag an outcome may have had behind its
        // command
        Duration span = decided.plusMillis(config.pendingBoundMs());
        this.indexer = new StatusIndexer(settings, groupId, topics, store, redis, span, clock);
    }

    /**
     * Gauges: whether the store is complete (0 while it rebuilds), the partitions this instance rebuilds; and the
     * indexer's consumer (its lag behind the outcomes: {@code kafka_consumer_fetch_manager_records_lag_max}).
     */
    public StatusStack bindTo(MeterRegistry metrics) {
        metrics.gauge("seckill_gateway_status_complete", store, s -> s.complete() ? 1 : 0);
        metrics.gauge("seckill_gateway_status_rebuilding", indexer, StatusIndexer::rebuilding);
        indexer.bindTo(metrics);
        return this;
    }

    public PurchaseStatusStore store() {
        return store;
    }

    public PurchaseStatusStore.Lanes lanes() {
        return lanes;
    }

    /** The status store's Redis (a warm-up's indexer keeps its progress there too). */
    public UnifiedJedis redis() {
        return redis;
    }

    public StatusIndexer indexer() {
        return indexer;
    }

    @Override
    public void close() {
        indexer.close();
        lanes.claims().close();
        lanes.reads().close();
        lanes.index().close();
        if (ownRedis) redis.close();
    }
}
