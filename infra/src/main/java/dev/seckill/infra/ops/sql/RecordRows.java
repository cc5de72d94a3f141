package dev.seckill.infra.ops.sql;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.duckdb.DuckDBAppender;

/**
 * A topic record as one row of {@code outcomes}, {@code ledger} or {@code commands} (the columns in the order of
 * {@link SaleTables}' CREATE TABLEs), counted per table; an outcome or ledger record that does not parse is counted in
 * {@link #unreadable}.
 */
final class RecordRows {
    final Map<String, Long> rows = new HashMap<>();
    long unreadable;

    void outcome(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        Outcome o = parse(r.value(), Outcome.class);
        if (o == null) return;
        a.beginRow();
        text(a, o.requestId());
        a.append(o.goodsId());
        a.append(o.userId());
        a.append(o.quantity());
        text(a, o.outcome() == null ? null : o.outcome().name());
        text(a, o.reason());
        a.append(o.stockAfter());
        time(a, o.acceptedAt());
        time(a, o.decidedAt());
        number(
                a,
                o.acceptedAt() == null || o.decidedAt() == null
                        ? null
                        : Duration.between(o.acceptedAt(), o.decidedAt()).toMillis());
        text(a, o.detail());
        text(a, o.heldRequestId());
        a.append(o.partition());
        a.append(o.offset());
        a.endRow();
        rows.merge("outcomes", 1L, Long::sum);
    }

    void ledger(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        LedgerEntry e = parse(r.value(), LedgerEntry.class);
        if (e == null) return;
        a.beginRow();
        text(a, e.opId());
        a.append(e.goodsId());
        text(a, e.type() == null ? null : e.type().name());
        a.append(e.quantity());
        number(a, e.type() == null ? null : e.stockDelta());
        a.append(e.stockAfter());
        number(a, e.userId());
        text(a, e.requestId());
        number(a, e.orderId());
        time(a, e.at());
        number(a, e.commandOffset());
        a.append(r.partition());
        a.append(r.offset());
        // a goods split into buckets: the bucket the change happened in, of how many, its commands partition, and a
        // transfer's other side; one bucket: bucket 0 of 1, in the ledger record's own partition
        a.append(e.bucketIndex());
        a.append(e.bucketCount());
        a.append(e.commandPartition(r.partition()));
        Integer peer = e.bucket() == null ? null : e.bucket().peer();
        if (peer == null) a.appendNull();
        else a.append((int) peer);
        a.endRow();
        rows.merge("ledger", 1L, Long::sum);
    }

    /** One row per record of the commands topic, whatever it is: the columns a command type has not are null. */
    void command(DuckDBAppender a, ConsumerRecord<String, byte[]> r) throws SQLException {
        ParsedCommand parsed = CommandCodec.decode(r.value());
        // type, goods, request, user, quantity, accepted, op, order, payment, reason, starts, ends, limit, problem
        Object[] v;
        if (parsed instanceof ParsedCommand.Valid valid) {
            Command c = valid.command();
            if (c instanceof Purchase p) {
                v = row("purchase", p.goodsId(), p.requestId(), p.userId(), (long) p.quantity());
                v[5] = p.acceptedAt();
            } else if (c instanceof OpenSale o) {
                v = row("open_sale", o.goodsId(), null, null, o.stock());
                v[6] = o.opId();
                v[10] = o.startAt();
                v[11] = o.endAt();
                v[12] = o.perUserLimit();
                if (o.force()) v[9] = "force";
            } else if (c instanceof Release rel) {
                v = row("release", rel.goodsId(), rel.requestId(), rel.userId(), (long) rel.quantity());
                v[6] = rel.opId();
                v[7] = rel.orderId();
                v[9] = rel.reason();
            } else if (c instanceof Pay p) {
                v = row("pay", p.goodsId(), p.requestId(), p.userId(), null);
                v[6] = p.opId();
                v[7] = p.orderId();
                v[8] = p.paymentId();
            } else {
                v = row(c instanceof CloseSale ? "close_sale" : "restore", c.goodsId(), null, null, null);
                v[6] = c.idempotencyId();
            }
        } else if (parsed instanceof ParsedCommand.InvalidPurchase ip) {
            v = row("invalid_purchase", ip.goodsId(), ip.requestId(), ip.userId(), (long) ip.quantity());
            v[5] = ip.acceptedAt();
            v[13] = ip.reason();
        } else {
            v = row("poison", goodsOfKey(r.key()), null, null, null);
            v[13] = ((ParsedCommand.Poison) parsed).reason();
        }
        a.beginRow();
        a.append(r.partition());
        a.append(r.offset());
        time(a, r.timestamp() < 0 ? null : Instant.ofEpochMilli(r.timestamp()));
        text(a, (String) v[0]);
        number(a, (Long) v[1]);
        text(a, (String) v[2]);
        number(a, (Long) v[3]);
        number(a, (Long) v[4]);
        time(a, (Instant) v[5]);
        text(a, (String) v[6]);
        number(a, (Long) v[7]);
        text(a, (String) v[8]);
        text(a, (String) v[9]);
        time(a, (Instant) v[10]);
        time(a, (Instant) v[11]);
        if (v[12] == null) a.appendNull();
        else a.append((int) (Integer) v[12]);
        text(a, (String) v[13]);
        a.endRow();
        rows.merge("commands", 1L, Long::sum);
    }

    private static Object[] row(String type, Long goods, String requestId, Long user, Long quantity) {
        Object[] v = new Object[14];
        v[0] = type;
        v[1] = goods;
        v[2] = requestId;
        v[3] = user;
        v[4] = quantity;
        return v;
    }

    private static Long goodsOfKey(String key) {
        try {
            return key == null ? null : Long.valueOf(key);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private <T> T parse(byte[] value, Class<T> type) {
        try {
            return Json.read(value, type);
        } catch (RuntimeException e) {
            unreadable++;
            return null;
        }
    }

    static void text(DuckDBAppender a, String s) throws SQLException {
        if (s == null) a.appendNull();
        else a.append(s);
    }

    static void number(DuckDBAppender a, Long n) throws SQLException {
        if (n == null) a.appendNull();
        else a.append((long) n);
    }

    static void time(DuckDBAppender a, Instant t) throws SQLException {
        if (t == null) a.appendNull();
        else a.append(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
}
