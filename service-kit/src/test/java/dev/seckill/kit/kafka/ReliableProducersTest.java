package dev.seckill.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class ReliableProducersTest {
    @Test
    void acks_all_and_idempotent_with_the_callers_additions() {
        Map<String, Object> c = ReliableProducers.config("h:1", Map.of(ProducerConfig.LINGER_MS_CONFIG, 20));
        assertThat(c)
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "h:1")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, 20)
                .hasSize(4);
    }

    @Test
    void acks_and_idempotence_are_not_overridable() {
        assertThatThrownBy(() -> ReliableProducers.config("h:1", Map.of(ProducerConfig.ACKS_CONFIG, "1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> ReliableProducers.config("h:1", Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
