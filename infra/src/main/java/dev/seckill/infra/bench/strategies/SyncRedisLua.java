package dev.seckill.infra.bench.strategies;

import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.infra.harness.buyers.Answer;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * The write-up's own design (section 3), as its code does it: rate limit, the sold-out mark (3.4), the dedupe-first Lua
 * deduct (3.2), then the order sent to Kafka asynchronously and the buyer told SUCCESS at once; a send that fails runs
 * the rollback Lua (4.1). The orders are written by {@link SyncOrderWriter}. What this design cannot see: a send still in
 * the producer's buffer when the process dies was confirmed to the buyer and is never written.
 */
final class SyncRedisLua implements Strategy {
    private final UnifiedJedis redis;
    private final SyncKeys keys;
    private final SyncScripts scripts;
    private final RateLimiter limiter;
    private final KafkaProducer<String, String> producer;
    private final String ordersTopic;
    private final AutoCloseable orderWriter;
    private final AtomicLong rolledBack = new AtomicLong();

    SyncRedisLua(
            UnifiedJedis redis,
            SyncKeys keys,
            RateLimiter limiter,
            KafkaProducer<String, String> producer,
            String ordersTopic,
            AutoCloseable orderWriter) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = new SyncScripts(redis, keys);
        this.limiter = limiter;
        this.producer = producer;
        this.ordersTopic = ordersTopic;
        this.orderWriter = orderWriter;
    }

    @Override
    public Answer buy(long goodsId, long userId) {
        if (limiter.check(goodsId, userId) != null) return Answer.RATE_LIMITED;
        if (redis.exists(keys.soldOut(goodsId))) return Answer.SOLD_OUT;
        long r = scripts.deduct(goodsId, userId);
        if (r == SyncScripts.ALREADY_BOUGHT) return Answer.DUPLICATE;
        if (r == SyncScripts.SOLD_OUT) {
            redis.set(keys.soldOut(goodsId), "1", SetParams.setParams().ex(600));
            return Answer.SOLD_OUT;
        }
        producer.send(
                new ProducerRecord<>(ordersTopic, Long.toString(goodsId), goodsId + "," + userId), (meta, failed) -> {
                    if (failed != null) {
                        scripts.rollback(goodsId, userId);
                        rolledBack.incrementAndGet();
                    }
                });
        return Answer.SUCCESS;
    }

    long rolledBack() {
        return rolledBack.get();
    }

    @Override
    public void close() throws Exception {
        producer.close();
        orderWriter.close();
        redis.close();
    }
}
