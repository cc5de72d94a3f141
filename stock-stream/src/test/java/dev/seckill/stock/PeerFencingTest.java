package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seckill.stack.KafkaFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A peer's open transaction is aborted as soon as the group has dropped the peer, not at its timeout: given a member
 * {@code <id>-1} whose thread producer (transactional id {@code <app>-<id>-1}) has a transaction open with a timeout of
 * a minute, when the member's session ends and PeerFencing checks the group, then that transaction can no longer
 * commit and a read_committed reader sees past it at once.
 */
class PeerFencingTest {
    @Test
    void aDroppedMembersOpenTransactionIsAbortedAtOnce() throws Exception {
        String app = "fence-" + UUID.randomUUID().toString().substring(0, 8);
        String topic = app + ".out";
        String member = "peer-a-1";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap()));
                PeerFencing fencing = new PeerFencing(
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap())),
                        app,
                        Duration.ofSeconds(1))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (KafkaProducer<String, String> zombie = producer(app + "-" + member)) {
                zombie.initTransactions();
                zombie.beginTransaction();
                zombie.send(new ProducerRecord<>(topic, "k", "open")).get(10, TimeUnit.SECONDS);
                try (KafkaConsumer<String, String> peer = member(app, member)) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> {
                        peer.poll(Duration.ofMillis(100));
                        return !peer.assignment().isEmpty();
                    });
                    fencing.check(); // the group as it is: the peer is a member
                    assertThat(lastStableOffset(admin, topic)).isZero();
                } // the peer dies (a static member does not leave): its session ends a second later

                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            fencing.check();
                            return lastStableOffset(admin, topic) > 0;
                        });
                assertThatThrownBy(zombie::commitTransaction).isInstanceOf(KafkaException.class);
            }
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            admin.deleteConsumerGroups(List.of(app)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static long lastStableOffset(Admin admin, String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(tp)
                .get(10, TimeUnit.SECONDS)
                .offset();
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KafkaFixture.bootstrap(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        transactionalId,
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        60_000),
                new StringSerializer(),
                new StringSerializer());
    }

    private static KafkaConsumer<String, String> member(String group, String instance) {
        KafkaConsumer<String, String> c = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KafkaFixture.bootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        group,
                        ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                        instance,
                        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                        1_000,
                        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                        200),
                new StringDeserializer(),
                new StringDeserializer());
        c.subscribe(List.of(group + ".out"));
        return c;
    }
}
