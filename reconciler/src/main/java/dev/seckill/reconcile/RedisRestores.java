package dev.seckill.reconcile;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Restore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The reconciler's one repair of Redis: a {@code restore} command through {@code <prefix>commands}, which stock-stream
 * applies in the goods' serial order from its own fold — correct at its position whatever else is in flight. A wiped
 * goods is restored while its partition is busy too, at most once per {@link #WIPE_RETRY_MS} (the stream may still be
 * on its way to the first one).
 * <p>The audit row is the restore's outbox: it is committed, naming the command's opId, before the command is sent, and
 * marked {@code sent_at} once Kafka acknowledged it. A process that dies in between leaves an audited restore unsent,
 * which the next cycle sends under the same opId ({@link #sendUnsent}); one that dies after the send but before the mark
 * sends it again, which the stream applies once (by opId). No restore is ever sent unaudited.
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

    /** Audits a restore of the goods (committed, on an auto-commit connection), then sends it and marks it sent. */
    void send(Connection c, long goods, String kind, String why) throws Exception {
        String opId = "reconcile-restore-" + goods + "-" + System.currentTimeMillis();
        long auditId;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO reconcile_audit (goods_id, kind, action, detail, op_id) VALUES (?, ?, 'restore_sent', ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setLong(1, goods);
            ps.setString(2, kind);
            ps.setString(3, why.length() > 500 ? why.substring(0, 500) : why);
            ps.setString(4, opId);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                auditId = keys.getLong(1);
            }
        }
        if (!c.getAutoCommit()) c.commit(); // durable before anything leaves
        sendAndMark(c, auditId, goods, opId);
    }

    /** Sends every audited restore not marked sent (the process died before it could), under its own opId. */
    int sendUnsent(Connection c) throws Exception {
        record Unsent(long auditId, long goods, String opId) {}
        List<Unsent> unsent = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, goods_id, op_id FROM reconcile_audit "
                        + "WHERE sent_at IS NULL AND op_id IS NOT NULL ORDER BY id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) unsent.add(new Unsent(rs.getLong(1), rs.getLong(2), rs.getString(3)));
        }
        for (Unsent u : unsent) sendAndMark(c, u.auditId(), u.goods(), u.opId());
        return unsent.size();
    }

    private void sendAndMark(Connection c, long auditId, long goods, String opId) throws Exception {
        Restore r = new Restore(goods, opId);
        commands.send(new ProducerRecord<>(topics.commands(), r.key(), CommandCodec.encode(r)))
                .get(30, TimeUnit.SECONDS);
        try (PreparedStatement ps = c.prepareStatement("UPDATE reconcile_audit SET sent_at = NOW(3) WHERE id = ?")) {
            ps.setLong(1, auditId);
            ps.executeUpdate();
        }
        if (!c.getAutoCommit()) c.commit();
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
