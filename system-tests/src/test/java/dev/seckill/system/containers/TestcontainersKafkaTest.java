package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.seckill.stack.DockerKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * testcontainers-kafka for real: a {@code KafkaContainer} on the project's own Kafka image through podman's
 * Docker-compatible API (the service {@code ./seckill test} starts), written to and read back with acks=all and
 * idempotence, as the pipeline's clients are. Skipped, with one line saying why, where podman's API or the image is
 * missing.
 */
@Tag(Podman.CONTAINERS)
class TestcontainersKafkaTest {
    @Test
    void aKafkaContainerOnTheProjectsImageTakesAWriteAndGivesItBack() throws Exception {
        String why = Podman.unusable();
        if (why != null) System.out.println("TestcontainersKafkaTest skipped: " + why);
        assumeTrue(why == null, why);
        Images.ensureBuilt(); // the suite's images, built once: the Kafka one among them
        String cannot = DockerKafka.cannotRunOnPodman();
        if (cannot != null) System.out.println("TestcontainersKafkaTest skipped: " + cannot);
        assumeTrue(cannot == null, cannot);
        try (KafkaContainer kafka = DockerKafka.container()) {
            kafka.start();
            assertThat(kafka.getDockerImageName()).isEqualTo(DockerKafka.PROJECT_IMAGE);
            String topic = "tc-" + UUID.randomUUID();
            String value = "written through " + kafka.getBootstrapServers();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            kafka.getBootstrapServers(),
                            ProducerConfig.ACKS_CONFIG,
                            "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                            true),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "k", value)).get();
            }
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            kafka.getBootstrapServers(),
                            ConsumerConfig.GROUP_ID_CONFIG,
                            topic,
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest"),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                ConsumerRecord<String, String> read = null;
                long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (read == null && System.nanoTime() < until)
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) read = r;
                assertThat(read).as("the record written, read back").isNotNull();
                assertThat(read.value()).isEqualTo(value);
            }
        }
    }
}
