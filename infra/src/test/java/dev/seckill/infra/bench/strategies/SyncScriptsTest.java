package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.redis.RedisConnections;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/** The synchronous design's two Lua scripts against a real Redis: the write-up's decision and its careful rollback. */
class SyncScriptsTest {
    static final long GOODS = 7001;
    final String prefix = "test-sync-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    final SyncKeys keys = new SyncKeys(prefix);
    final UnifiedJedis redis = RedisConnections.open(Settings.with(Map.of()));

    @AfterEach
    void cleanUp() {
        redis.del(keys.stock(GOODS), keys.buyers(GOODS), keys.soldOut(GOODS));
        redis.close();
    }

    @Test
    void aBuyerWhoBoughtIsAnsweredBeforeTheStockIsReadAndTheLastUnitGoesToOneBuyer() {
        redis.set(keys.stock(GOODS), "2");
        SyncScripts scripts = new SyncScripts(redis, keys);

        assertThat(scripts.deduct(GOODS, 1)).isEqualTo(SyncScripts.BOUGHT);
        assertThat(scripts.deduct(GOODS, 1)).isEqualTo(SyncScripts.ALREADY_BOUGHT);
        assertThat(scripts.deduct(GOODS, 2)).isEqualTo(SyncScripts.BOUGHT);
        assertThat(scripts.deduct(GOODS, 3)).isEqualTo(SyncScripts.SOLD_OUT);
        // sold out and already bought: the dedupe answers first
        assertThat(scripts.deduct(GOODS, 2)).isEqualTo(SyncScripts.ALREADY_BOUGHT);
        assertThat(redis.get(keys.stock(GOODS))).isEqualTo("0");
        assertThat(redis.smembers(keys.buyers(GOODS))).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void aRollbackGivesBackOnlyWhatTheBuyerHeldAndOnlyOnce() {
        redis.set(keys.stock(GOODS), "1");
        SyncScripts scripts = new SyncScripts(redis, keys);
        scripts.deduct(GOODS, 1);

        assertThat(scripts.rollback(GOODS, 2)).as("a buyer the deduct refused").isZero();
        assertThat(scripts.rollback(GOODS, 1)).isEqualTo(1);
        assertThat(scripts.rollback(GOODS, 1)).as("the same rollback again").isZero();
        assertThat(redis.get(keys.stock(GOODS))).isEqualTo("1");
        assertThat(scripts.deduct(GOODS, 1)).as("the buyer may buy again").isEqualTo(SyncScripts.BOUGHT);
    }
}
