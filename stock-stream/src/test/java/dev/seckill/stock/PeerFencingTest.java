package dev.seckill.stock;

import static dev.seckill.stock.support.KafkaGroups.admin;
import static dev.seckill.stock.support.KafkaGroups.openTransaction;
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
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A peer's open transaction is aborted as soon as the group has dropped the peer, not at its timeout: given a stream
 * thread's consumer {@code <app>-peer-a-StreamThread-1-consumer} whose producer (transactional id
 * {@code <app>-peer-a-1}) has a transaction open with a timeout of a minute, when the member leaves the group and
 * PeerFencing checks it, then that transaction can no longer commit and a read_committed reader sees past it at once;
 * when the member is back under the same name (a restart), nothing is fenced.
 */
class PeerFencingTest {
    @Test
    void aDroppedMembersOpenTransactionIsAbortedAtOnce() throws Exception {
        String app = "fence-" + UUID.randomUUID().toString().substring(0, 8);
        String topic = app + ".out";
        try (Admin admin = admin();
                PeerFencing fencing = new PeerFencing(admin(), app, Duration.ofSeconds(1))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (KafkaProducer<String, String> zombie = openTransaction(app + "-peer-a-1", topic)) {
                try (KafkaConsumer<String, String> peer = member(app, "peer-a")) {
                    fencing.check(); // the group as it is: the peer is a member
                    assertThat(fencing.membersSeen()).isEqualTo(1);
                    assertThat(lastStableOffset(admin, topic)).isZero();
                } // the peer is gone (a dynamic member leaves the group as it closes)

                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            fencing.check();
                            return lastStableOffset(admin, topic) > 0;
                        });
                assertThatThrownBy(zombie::commitTransaction).isInstanceOf(KafkaException.class);
            }
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMemberBackUnderItsNameIsNotFenced() throws Exception {
        String app = "fence-" + UUID.randomUUID().toString().substring(0, 8);
        String topic = app + ".out";
        try (Admin admin = admin();
                PeerFencing fencing = new PeerFencing(admin(), app, Duration.ofSeconds(1))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (KafkaConsumer<String, String> before = member(app, "peer-b")) {
                fencing.check();
                assertThat(fencing.membersSeen())
                        .isEqualTo(1); // the check did see it, so sparing it below means something
            }
            // the restarted instance: a new member under the same client id, its producer initialised again
            try (KafkaConsumer<String, String> restarted = member(app, "peer-b");
                    KafkaProducer<String, String> producer = openTransaction(app + "-peer-b-1", topic)) {
                fencing.check();
                assertThat(fencing.membersSeen()).isEqualTo(1);
                producer.commitTransaction(); // not fenced: it commits
                // the coordinator writes the commit marker after it answered: the stable offset moves soon after
                await().atMost(Duration.ofSeconds(30)).until(() -> lastStableOffset(admin, topic) > 0);
            }
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static long lastStableOffset(Admin admin, String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(tp)
                .get(10, TimeUnit.SECONDS)
                .offset();
    }

    /** A member of the group {@code app} named as a stream thread's consumer of instance {@code instance}, joined. */
    private static KafkaConsumer<String, String> member(String app, String instance) {
        KafkaConsumer<String, String> c = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KafkaFixture.bootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        app,
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        app + "-" + instance + "-StreamThread-1-consumer"),
                new StringDeserializer(),
                new StringDeserializer());
        c.subscribe(List.of(app + ".out"));
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            c.poll(Duration.ofMillis(100));
            return !c.assignment().isEmpty();
        });
        return c;
    }
}
