package dev.seckill.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The local KRaft launcher gives a real broker that provisions the pipeline's topics and round-trips records. */
class KafkaBrokerTest {
    static KafkaBroker broker;

    @BeforeAll
    static void start() {
        broker = KafkaBroker.onFreePorts().start();
    }

    @AfterAll
    static void stop() {
        broker.stop();
    }

    @Test
    void provisionsEveryTopicWithItsPartitionsAndLedgerRetention() throws Exception {
        Topics topics = new Topics("t1.");
        List<String> created = TopicProvisioner.ensure(broker.settings(), topics, 3);
        assertThat(created).containsExactlyInAnyOrderElementsOf(topics.all());
        assertThat(TopicProvisioner.ensure(broker.settings(), topics, 3))
                .as("second run creates nothing")
                .isEmpty();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
            var desc = admin.describeTopics(List.of(topics.commands()))
                    .allTopicNames()
                    .get();
            assertThat(desc.get(topics.commands()).partitions()).hasSize(3);
            var res = new ConfigResource(ConfigResource.Type.TOPIC, topics.ledger());
            var config = admin.describeConfigs(List.of(res)).all().get().get(res);
            assertThat(config.get("retention.ms").value()).isEqualTo("-1");
        }
    }

    @Test
    void theBrokerLogsThroughLog4j2() throws Exception {
        String log = Files.readString(broker.log());
        assertThat(log)
                .as("a log4j2 provider matching log4j-core is on the broker's classpath")
                .contains("Kafka Server started")
                .doesNotContain("could not find a logging implementation");
    }

    @Test
    void roundTripsARecordWithTransactionsEnabled() {
        Topics topics = new Topics("t2.");
        TopicProvisioner.ensure(broker.settings(), topics, 2);
        try (var producer = new KafkaProducer<String, String>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrap(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        "tx-test"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topics.commands(), "1001", "hello"));
            producer.commitTransaction();
        }
        try (var consumer = new KafkaConsumer<String, String>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "g",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topics.commands()));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (got.isEmpty() && System.currentTimeMillis() < deadline)
                consumer.poll(Duration.ofMillis(200)).forEach(got::add);
            assertThat(got).extracting(ConsumerRecord::value).containsExactly("hello");
        }
    }
}
