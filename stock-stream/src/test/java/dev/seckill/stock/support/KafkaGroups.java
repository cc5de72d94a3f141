package dev.seckill.stock.support;

import static org.awaitility.Awaitility.await;

import dev.seckill.stack.KafkaFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Stand-ins for a stream peer on the fixture's broker, for the tests of what a survivor does to a dropped one: its
 * open transaction, its membership, and the group as the Admin API describes it.
 */
public final class KafkaGroups {
    private KafkaGroups() {}

    public static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap()));
    }

    /** A producer under {@code transactionalId} (a minute's timeout) with a transaction open: one record sent. */
    public static KafkaProducer<String, String> openTransaction(String transactionalId, String topic) throws Exception {
        KafkaProducer<String, String> p = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KafkaFixture.bootstrap(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        transactionalId,
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        60_000),
                new StringSerializer(),
                new StringSerializer());
        p.initTransactions();
        p.beginTransaction();
        p.send(new ProducerRecord<>(topic, "k", "open")).get(10, TimeUnit.SECONDS);
        return p;
    }

    /** A static member of {@code group} named {@code instanceId}, joined, with a session of a minute. */
    public static KafkaConsumer<String, String> staticMember(String group, String instanceId, String topic) {
        KafkaConsumer<String, String> c = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KafkaFixture.bootstrap(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        group,
                        ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                        instanceId,
                        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                        60_000),
                new StringDeserializer(),
                new StringDeserializer());
        c.subscribe(List.of(topic));
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            c.poll(Duration.ofMillis(100));
            return !c.assignment().isEmpty();
        });
        return c;
    }

    /** The group's static members' instance ids. */
    public static List<String> staticMembers(Admin admin, String group) throws Exception {
        return admin
                .describeConsumerGroups(List.of(group))
                .describedGroups()
                .get(group)
                .get(10, TimeUnit.SECONDS)
                .members()
                .stream()
                .map(MemberDescription::groupInstanceId)
                .flatMap(Optional::stream)
                .toList();
    }
}
