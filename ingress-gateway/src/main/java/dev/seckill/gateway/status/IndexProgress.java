package dev.seckill.gateway.status;

import dev.seckill.contracts.redis.RedisKeys;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * The status index's progress, kept in the same Redis as the entries it covers ({@link RedisKeys#statusIndex}: the
 * next outcome offset per partition; {@link RedisKeys#statusReady}: the partitions the store holds completely). The
 * offset is advanced only after the entries before it are written, so whatever Redis comes back with — empty, an older
 * snapshot, a promoted replica a second behind — its offset is never ahead of its entries: the index goes on from
 * there, and a missing offset means the partition's entries are gone and are rebuilt from the outcome topics.
 * Blocking calls, for the indexer's own thread.
 */
final class IndexProgress {
    /** Advances a partition's offset from the one this indexer last wrote; any other value is answered, unchanged. */
    static final String ADVANCE = """
            local held = redis.call('HGET', KEYS[1], ARGV[1])
            if (held or '') == ARGV[2] then
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
              return 'ok'
            end
            return held or ''
            """;

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final long pendingMs;

    /** @param pendingMs the pending bound: how long after a rebuild a purchase accepted before the loss may go on */
    IndexProgress(UnifiedJedis redis, RedisKeys keys, long pendingMs) {
        this.redis = redis;
        this.keys = keys;
        this.pendingMs = pendingMs;
    }

    /** Marks that Redis lost writes ({@link RedisKeys#statusLost}), for the pending bound from now. */
    void markLoss() {
        redis.set(
                keys.statusLost(),
                Long.toString(System.currentTimeMillis()),
                SetParams.setParams().px(pendingMs));
    }

    /** A rebuild ended: a loss marked is kept the pending bound from now (nothing when there was none). */
    void extendLoss() {
        redis.pexpire(keys.statusLost(), pendingMs);
    }

    /** The next offset the store's entries of this partition are missing from, or null when it holds none of them. */
    Long offset(TopicPartition tp) {
        String held = redis.hget(keys.statusIndex(), field(tp));
        return held == null ? null : Long.valueOf(held);
    }

    boolean ready(TopicPartition tp) {
        return redis.hexists(keys.statusReady(), field(tp));
    }

    /**
     * Moves the partition's offset from {@code from} (null: none) to {@code to}; null when done, else the offset Redis
     * holds instead (-1: none), which says it lost writes since this indexer last wrote.
     */
    Long advance(TopicPartition tp, Long from, long to) {
        Object r = redis.eval(
                ADVANCE,
                List.of(keys.statusIndex()),
                List.of(field(tp), from == null ? "" : Long.toString(from), Long.toString(to)));
        if ("ok".equals(r)) return null;
        String held = String.valueOf(r);
        return held.isEmpty() ? -1L : Long.parseLong(held);
    }

    void markReady(TopicPartition tp) {
        redis.hset(keys.statusReady(), field(tp), "1");
    }

    void unready(TopicPartition tp) {
        redis.hdel(keys.statusReady(), field(tp));
    }

    private static String field(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }
}
