package dev.seckill.contracts.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class DeadLettersTest {
    static String text(Headers h, String name) {
        return new String(h.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void theFourHeadersAreSetNextToTheRecordsOwn_andReplaceAnyOfTheSameName() {
        Headers h = new RecordHeaders();
        h.add("traceId", "t-1".getBytes(StandardCharsets.UTF_8));
        h.add(DeadLetters.ERROR, "an earlier reason".getBytes(StandardCharsets.UTF_8));
        DeadLetters.mark(h, "malformed Outcome", "seckill.outcome.success", 3, 42L);
        assertThat(text(h, "traceId")).isEqualTo("t-1");
        assertThat(h.headers(DeadLetters.ERROR)).hasSize(1);
        assertThat(text(h, DeadLetters.ERROR)).isEqualTo("malformed Outcome");
        assertThat(text(h, DeadLetters.SOURCE_TOPIC)).isEqualTo("seckill.outcome.success");
        assertThat(text(h, DeadLetters.SOURCE_PARTITION)).isEqualTo("3");
        assertThat(text(h, DeadLetters.SOURCE_OFFSET)).isEqualTo("42");
    }
}
