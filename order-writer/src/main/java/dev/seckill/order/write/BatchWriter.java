package dev.seckill.order.write;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.kit.retry.Backoff;
import dev.seckill.kit.trace.TraceMdc;
import dev.seckill.order.store.Orders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a batch in one DB transaction, in the batch's order: runs of purchases through the multi-row fast path, the
 * rest record by record with a savepoint each; retries the whole batch while the database is at fault. Immutable and stateless between
 * batches: it runs on the writer thread (and, during a handover, on the consumer thread — never on both at once).
 */
public final class BatchWriter {
    private static final Logger LOG = LoggerFactory.getLogger(BatchWriter.class);

    private final DataSource db;
    private final TopicHandlers handlers;
    private final MeterRegistry metrics;

    public BatchWriter(DataSource db, TopicHandlers handlers, MeterRegistry metrics) {
        this.db = db;
        this.handlers = handlers;
        this.metrics = metrics;
    }

    /** Writes the batch, retrying DB faults with backoff (consumption is paused meanwhile); not written once {@code running} turns false. */
    public WrittenBatch writeUntilDone(Batch batch, BooleanSupplier running) {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
        boolean failing = false;
        while (running.getAsBoolean()) {
            try {
                List<DeadLetter> deadLetters = write(batch);
                if (failing)
                    LOG.info(
                            "database is back: batch of {} written",
                            batch.records().size());
                return new WrittenBatch(batch, deadLetters);
            } catch (SQLException e) {
                metrics.counter("seckill_writer_db_retries").increment();
                long backoffMs = backoff.nextMillis();
                LOG.warn(
                        "database write failed ({}), retrying in {} ms: {}",
                        e.getSQLState(),
                        backoffMs,
                        e.getMessage());
                failing = true;
                try {
                    Thread.sleep(backoffMs); // backoff between DB retries, on the writer thread
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return new WrittenBatch(batch, null);
                }
            }
        }
        return new WrittenBatch(batch, null);
    }

    /**
     * Writes a batch in one transaction, piece by piece in its order ({@link Piece}). If the fast path meets a data error
     * (a record at fault, or a purchase applied before), the whole batch is redone record by record with a savepoint
     * each, so exactly the faulty records go to the DLQ.
     */
    private List<DeadLetter> write(Batch batch) throws SQLException {
        Timer.Sample sample = Timer.start(metrics);
        WriteSpans spans = WriteSpans.NONE;
        List<DeadLetter> deadLetters;
        try (Connection c = db.getConnection()) {
            spans = WriteSpans.start(batch.records()); // from the transaction's start, not the pool's wait
            c.setAutoCommit(false);
            try {
                deadLetters = writeFast(c, batch, spans);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is gone; the transaction is gone with it
                }
                throw e;
            }
        } catch (Throwable e) {
            spans.failed(e);
            throw e;
        }
        sample.stop(Timer.builder("seckill_writer_db_batch")
                .publishPercentileHistogram()
                .register(metrics));
        spans.written(deadLetters.size());
        return deadLetters;
    }

    /** The pieces in order: each run of purchases in multi-row INSERTs, each other record alone; on a data error, all one by one. */
    private List<DeadLetter> writeFast(Connection c, Batch batch, WriteSpans spans) throws SQLException {
        List<DeadLetter> deadLetters = new ArrayList<>();
        try {
            for (Piece piece : batch.pieces()) {
                if (piece instanceof Piece.Run run) {
                    int written = Orders.recordAll(c, run.deductions());
                    if (written < 0)
                        deadLetters.addAll(writeEach(c, run.records(), spans)); // a release waits for an order
                    else metrics.counter("seckill_orders_written").increment(written);
                } else deadLetters.addAll(writeEach(c, List.of(((Piece.One) piece).record()), spans));
            }
            return deadLetters;
        } catch (SQLException e) {
            if (!isDataError(e)) throw e;
            c.rollback();
            return writeEach(c, batch.records(), spans);
        }
    }

    /** The per-record path: a savepoint per record, so a record at fault is rolled back alone and dead-lettered. */
    private List<DeadLetter> writeEach(Connection c, List<ConsumerRecord<String, byte[]>> records, WriteSpans spans)
            throws SQLException {
        List<DeadLetter> deadLetters = new ArrayList<>();
        int orders = 0;
        for (ConsumerRecord<String, byte[]> r : records) {
            Savepoint sp = c.setSavepoint();
            try {
                if (apply(c, r, spans)) orders++;
            } catch (PoisonRecord p) {
                c.rollback(sp);
                deadLetters.add(new DeadLetter(r, p.getMessage()));
            } catch (SQLException e) {
                if (!isDataError(e)) throw e;
                c.rollback(sp);
                deadLetters.add(new DeadLetter(r, "cannot be written: " + e.getMessage()));
            }
        }
        metrics.counter("seckill_orders_written").increment(orders);
        return deadLetters;
    }

    private boolean apply(Connection c, ConsumerRecord<String, byte[]> r, WriteSpans spans)
            throws SQLException, PoisonRecord {
        String traceId = TraceHeaders.get(r.headers());
        try (TraceMdc ignored = TraceMdc.put(traceId, spans.spanOf(r))) {
            return handlers.handlerOf(r.topic()).apply(c, r, traceId);
        }
    }

    /** SQL states 22 (data) and 23 (integrity): the record is at fault, not the database. */
    private static boolean isDataError(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }
}
