package dev.seckill.reconcile;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One ledger record folded into the DB (reconcile_fold, reconcile_holding), on a connection whose transaction the caller
 * owns — or, when it cannot be folded, recorded in reconcile_audit instead (in the same transaction as the offset that
 * steps over it, so a skip is recorded exactly once).
 */
final class FoldRows {
    static final String SKIPPED_KIND = "unreadable_ledger_entry";

    private FoldRows() {}

    /** A ledger record read: the entry, or why it cannot be folded (then {@code entry} is null). */
    record Read(LedgerEntry entry, String problem) {}

    /** Reads a record; an entry without what the contract requires of its type is not folded (half a change is worse). */
    static Read read(ConsumerRecord<String, byte[]> r) {
        LedgerEntry e;
        try {
            e = Json.read(r.value(), LedgerEntry.class);
        } catch (RuntimeException ex) {
            return new Read(null, "malformed LedgerEntry: " + ex.getMessage());
        }
        if (e == null || e.type() == null || e.opId() == null || e.goodsId() <= 0)
            return new Read(null, "ledger entry without type, opId or goodsId");
        boolean buyer = e.type() == LedgerType.DEDUCTED || e.type() == LedgerType.RELEASED;
        if (buyer && e.userId() == null) return new Read(null, e.type() + " entry " + e.opId() + " without userId");
        if (e.type() == LedgerType.DEDUCTED && e.requestId() == null)
            return new Read(null, "DEDUCTED entry " + e.opId() + " without requestId");
        return new Read(e, null);
    }

    /** The record's audit row: kind {@value #SKIPPED_KIND}, under its goods when its key names one (else 0). */
    static void skip(Connection c, ConsumerRecord<String, byte[]> r, String problem) throws SQLException {
        long goods;
        try {
            goods = r.key() == null ? 0 : Long.parseLong(r.key());
        } catch (NumberFormatException ex) {
            goods = 0;
        }
        ReconcileQueries.audit(
                c, goods, SKIPPED_KIND, "skipped", r.topic() + "-" + r.partition() + "@" + r.offset() + ": " + problem);
    }

    static void apply(Connection c, LedgerEntry e) throws SQLException {
        long opened = 0;
        long deducted = 0;
        long released = 0;
        switch (e.type()) {
            case OPENED -> {
                opened = e.quantity();
                startWithoutBuyers(c, e);
            }
            case DEDUCTED -> {
                deducted = e.quantity();
                hold(c, e);
            }
            case RELEASED -> {
                released = e.quantity();
                update(c, "DELETE FROM reconcile_holding WHERE goods_id = ? AND user_id = ?", e.goodsId(), e.userId());
            }
            default -> {}
        }
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO reconcile_fold (goods_id, opened, deducted, released, "
                        + "keys_expire_at_ms) VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE opened = opened + VALUES(opened), "
                        + "deducted = deducted + VALUES(deducted), released = released + VALUES(released), "
                        + "keys_expire_at_ms = COALESCE(VALUES(keys_expire_at_ms), keys_expire_at_ms)")) {
            ps.setLong(1, e.goodsId());
            ps.setLong(2, opened);
            ps.setLong(3, deducted);
            ps.setLong(4, released);
            // OPENED and RESTORED say when the sale's keys expire; the fold keeps the latest
            if (e.keysExpireAt() == null) ps.setNull(5, Types.BIGINT);
            else ps.setLong(5, e.keysExpireAt().toEpochMilli());
            ps.executeUpdate();
        }
        // how its current sale is split: an open says it, and so does every entry of a bucketed goods; a transfer
        // between its buckets moves nothing in the goods' fold (its two sides net to 0)
        if (e.type() == LedgerType.OPENED || e.bucket() != null)
            update(c, "UPDATE reconcile_fold SET buckets = ? WHERE goods_id = ?", e.bucketCount(), e.goodsId());
        // where the goods' current sale begins in its commands partition: the orders the reconciler writes for its
        // buyers are placed there (order-writer ends the orders of a sale when the next one opens, by that offset)
        if (e.type() == LedgerType.OPENED)
            update(
                    c,
                    "UPDATE reconcile_fold SET opened_command_offset = ? WHERE goods_id = ?",
                    e.commandOffset(),
                    e.goodsId());
    }

    /**
     * A sale starts without buyers (a forced open deleted them, an open over an expired sale found none); a bucket's
     * open, without the buyers of that bucket (the others' entries are folded in any order around it).
     */
    private static void startWithoutBuyers(Connection c, LedgerEntry e) throws SQLException {
        if (e.bucket() == null) update(c, "DELETE FROM reconcile_holding WHERE goods_id = ?", e.goodsId());
        else update(c, "DELETE FROM reconcile_holding WHERE goods_id = ? AND bucket = ?", e.goodsId(), e.bucketIndex());
    }

    /** A DEDUCTED entry's buyer holds its purchase, in its bucket. */
    private static void hold(Connection c, LedgerEntry e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "REPLACE INTO reconcile_holding (goods_id, user_id, request_id, quantity, bucket) VALUES (?, ?, ?, ?, ?)")) {
            ps.setLong(1, e.goodsId());
            ps.setLong(2, e.userId());
            ps.setString(3, e.requestId());
            ps.setLong(4, e.quantity());
            ps.setInt(5, e.bucketIndex());
            ps.executeUpdate();
        }
    }

    private static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            ps.executeUpdate();
        }
    }
}
