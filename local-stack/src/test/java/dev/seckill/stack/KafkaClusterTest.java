package dev.seckill.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Given a 3-node KRaft cluster on loopback, a topic created without settings gets replication factor 3 and
 * min.insync.replicas 2; when the leader of its partition is SIGKILLed, acks=all writes go on with the two left, and
 * the node restarted from its data rejoins the ISR.
 */
class KafkaClusterTest {
    @Test
    void aThreeNodeClusterKeepsTakingAcksAllWritesWhenTheLeaderIsKilled_andTheNodeRejoins() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.onFreePorts(3).start();
                Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrap()));
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                cluster.bootstrap(),
                                ProducerConfig.ACKS_CONFIG,
                                "all",
                                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                                true,
                                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                                60_000),
                        new StringSerializer(),
                        new StringSerializer())) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .hasSize(3);
            admin.createTopics(List.of(new NewTopic("t", 1, (short) -1))).all().get(30, TimeUnit.SECONDS);
            // created on the controller; each broker learns it a moment later (a describe before that: unknown)
            TopicDescription t = Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(
                            () -> admin.describeTopics(List.of("t"))
                                    .allTopicNames()
                                    .get(30, TimeUnit.SECONDS)
                                    .get("t"),
                            d -> d.partitions().get(0).leader() != null);
            assertThat(t.partitions().get(0).replicas())
                    .as("replication factor 3 by default")
                    .hasSize(3);
            String minIsr = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "t")))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .values()
                    .iterator()
                    .next()
                    .get("min.insync.replicas")
                    .value();
            assertThat(minIsr).isEqualTo("2");
            producer.send(new ProducerRecord<>("t", "k", "before")).get(30, TimeUnit.SECONDS);

            int leader = t.partitions().get(0).leader().id();
            cluster.node(leader).kill();
            long t0 = System.nanoTime();
            producer.send(new ProducerRecord<>("t", "k", "after the leader died"))
                    .get(60, TimeUnit.SECONDS);
            System.out.printf(
                    "acks=all write after the leader's SIGKILL took %d ms%n", (System.nanoTime() - t0) / 1_000_000);

            cluster.node(leader).launch().awaitReady();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> admin.describeTopics(List.of("t"))
                                    .allTopicNames()
                                    .get(30, TimeUnit.SECONDS)
                                    .get("t")
                                    .partitions()
                                    .get(0)
                                    .isr()
                                    .size()
                            == 3);
        }
    }
}
