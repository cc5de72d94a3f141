package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Restore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The reconciler's one repair of Redis: a {@code restore} command through {@code <prefix>commands}, which stock-stream
 * applies in the goods' serial order from its own fold — correct at its position whatever else is in flight. A wiped
 * goods is restored while its partition is busy too, at most once per {@link #WIPE_RETRY_MS} (the stream may still be
 * on its way to the first one).
 */
final class RedisRestores {
    static final long WIPE_RETRY_MS = 10_000;

    private final Producer<String, byte[]> commands;
    private final Topics topics;
    private final Map<Long, Long> lastWipeRestore = new HashMap<>();

    RedisRestores(Producer<String, byte[]> commands, Topics topics) {
        this.commands = commands;
        this.topics = topics;
    }

    void send(long goods) throws Exception {
        Restore r = new Restore(goods, "reconcile-restore-" + goods + "-" + System.currentTimeMillis());
        commands.send(new ProducerRecord<>(topics.commands(), r.key(), CommandCodec.encode(r)))
                .get(30, TimeUnit.SECONDS);
    }

    /** Whether a wiped goods is due a restore now (none sent for it in the last {@link #WIPE_RETRY_MS}); marks it sent. */
    boolean wipeRestoreDue(long goods) {
        long now = System.currentTimeMillis();
        Long last = lastWipeRestore.get(goods);
        if (last != null && now - last < WIPE_RETRY_MS) return false;
        lastWipeRestore.put(goods, now);
        return true;
    }
}
