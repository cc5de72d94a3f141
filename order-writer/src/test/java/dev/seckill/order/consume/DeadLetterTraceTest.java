package dev.seckill.order.consume;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.kit.config.Settings;
import dev.seckill.order.OrderWriterSettings;
import dev.seckill.order.write.DeadLetter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The line that says a record went to the DLQ carries that record's traceId, and leaves no traceId behind. */
@Tag("fast")
class DeadLetterTraceTest {
    final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    final Logger logger = (Logger) LoggerFactory.getLogger(DeadLetterWriter.class);
    final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    final DeadLetterWriter writer = new DeadLetterWriter(
            producer, "t.dlq", OrderWriterSettings.from(Settings.with(Map.of())), new SimpleMeterRegistry());

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
    }

    @Test
    void theDlqLineCarriesTheRecordsTraceId() {
        ConsumerRecord<String, byte[]> traced = record(7);
        TraceHeaders.put(traced.headers(), "4bf92f3577b34da6a3ce929d0e0e4736");
        writer.send(new DeadLetter(traced, "unreadable"));
        writer.send(new DeadLetter(record(8), "unreadable")); // no traceId header: no traceId in the line

        assertThat(producer.history()).hasSize(2);
        assertThat(lines.list).hasSize(2);
        assertThat(lines.list.get(0).getFormattedMessage())
                .isEqualTo("record t.ledger-0@7 sent to the DLQ: unreadable");
        assertThat(lines.list.get(0).getMDCPropertyMap()).containsEntry("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(lines.list.get(1).getMDCPropertyMap()).doesNotContainKey("traceId");
        assertThat(MDC.get("traceId")).as("nothing left on the consumer thread").isNull();
    }

    static ConsumerRecord<String, byte[]> record(long offset) {
        return new ConsumerRecord<>("t.ledger", 0, offset, "1001", "{".getBytes(StandardCharsets.UTF_8));
    }
}
