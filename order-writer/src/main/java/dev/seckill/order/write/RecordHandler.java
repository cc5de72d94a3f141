package dev.seckill.order.write;

import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What a record of one topic does to the database, on a connection whose transaction the caller owns. */
@FunctionalInterface
public interface RecordHandler {
    /**
     * @return whether a new order row was written (counted in {@code seckill_orders_written})
     * @throws PoisonRecord when the record can never be written (it goes to the DLQ)
     * @throws SQLException states 22/23 are the record's fault (DLQ); anything else is the database's (retry the batch)
     */
    boolean apply(Connection c, ConsumerRecord<String, byte[]> record, String traceId)
            throws SQLException, PoisonRecord;
}
