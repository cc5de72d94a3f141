package dev.seckill.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class ReliableProducersTest {
    private static final Settings AT_H1 = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, "h:1"));

    @Test
    void acks_all_and_idempotent_with_the_callers_additions() {
        Map<String, Object> c = ReliableProducers.config(AT_H1, Map.of(ProducerConfig.LINGER_MS_CONFIG, 20));
        assertThat(c)
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "h:1")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, 20);
    }

    @Test
    void acks_and_idempotence_are_not_overridable() {
        assertThatThrownBy(() -> ReliableProducers.config(AT_H1, Map.of(ProducerConfig.ACKS_CONFIG, "1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> ReliableProducers.config(AT_H1, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false)))
                .isInstanceOf(IllegalArgumentException.class);
        Settings passThrough =
                AT_H1.and(Map.of("kafka.property.acks", "1", "kafka.property.enable.idempotence", "false"));
        assertThat(ReliableProducers.config(passThrough, Map.of()))
                .as("a pass-through property does not weaken the writers")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    }

    @Test
    void the_connection_comes_from_the_one_home_with_its_security() {
        Settings secure = AT_H1.and(Map.of(
                "kafka.security.protocol", "SASL_PLAINTEXT", "kafka.sasl.username", "u", "kafka.sasl.password", "p"));
        assertThat(ReliableProducers.config(secure, Map.of()))
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsKey("sasl.jaas.config");
    }
}
