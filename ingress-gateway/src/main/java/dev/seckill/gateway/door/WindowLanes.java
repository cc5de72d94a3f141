package dev.seckill.gateway.door;

import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.GatewaySettings;
import java.util.concurrent.ThreadPoolExecutor;
import redis.clients.jedis.UnifiedJedis;

/**
 * The threads that look sale windows up ({@link SaleWindows}): a lane a flood of made-up goodsIds may fill, and one of
 * the goods known to have a sale, which it cannot.
 */
public record WindowLanes(ThreadPoolExecutor flood, ThreadPoolExecutor sales) implements AutoCloseable {
    public static WindowLanes of(GatewaySettings config) {
        return new WindowLanes(
                SaleWindows.lookups(2, config.windowLookupQueue()), SaleWindows.saleLookups(config.windowCacheGoods()));
    }

    public SaleWindows windows(UnifiedJedis redis, RedisKeys keys, GatewaySettings config) {
        return new SaleWindows(redis, keys, flood, sales, config.windowCacheMs(), config.windowCacheGoods());
    }

    @Override
    public void close() {
        flood.shutdownNow();
        sales.shutdownNow();
    }
}
