package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.kit.kafka.SessionTimeouts;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.warmup.LiveSale;
import dev.seckill.stack.KafkaFixture;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** What a service decides at start from the brokers: whether a sale is live, and the session it may have. */
class StartMidSaleTest {
    @Test
    void aStartWithNoRecentCommandWarmsUpAndOneMidSaleServesAtOnce() throws Exception {
        String prefix = "live-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Topics topics = new Topics(prefix);
        Settings settings = Settings.with(
                Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap(), Settings.TOPIC_PREFIX, prefix));
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 2);
        try {
            // given a commands topic with no command: a deploy before the sale warms up
            assertThat(LiveSale.warmupUnlessLive(settings, 500, "test")).isEqualTo(500);

            // when a purchase command has just arrived: a restart mid-sale serves at once
            try (KafkaProducer<String, String> p = new KafkaProducer<>(
                    Map.of("bootstrap.servers", KafkaFixture.bootstrap()),
                    new StringSerializer(),
                    new StringSerializer())) {
                p.send(new ProducerRecord<>(topics.commands(), "1", "{}")).get(10, TimeUnit.SECONDS);
            }
            assertThat(LiveSale.warmupUnlessLive(settings, 500, "test")).isZero();
            // the window turned off: always warm; no warm-up asked: none
            assertThat(LiveSale.warmupUnlessLive(
                            settings.and(Map.of(WarmupSettings.LIVE_WINDOW_MS.name(), "0")), 500, "test"))
                    .isEqualTo(500);
            assertThat(LiveSale.warmupUnlessLive(settings, 0, "test")).isZero();
        } finally {
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaFixture.bootstrap()))) {
                admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aSessionBelowTheBrokersMinimumIsRaisedToIt() throws Exception {
        // the local stack's broker allows 1 s (BrokerProperties); Kafka's own default floor is 6 s
        SessionTimeouts.Range range = SessionTimeouts.brokerRange(KafkaFixture.settings());
        assertThat(range.read()).isTrue();
        int min = range.min();
        assertThat(SessionTimeouts.fitted(KafkaFixture.settings(), min - 1, "test"))
                .isEqualTo(min);
        assertThat(SessionTimeouts.fitted(KafkaFixture.settings(), min + 1_000, "test"))
                .isEqualTo(min + 1_000);
    }
}
