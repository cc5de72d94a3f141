package dev.seckill.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The secured local broker: TLS verified against the CA made at start, SCRAM users made through the Admin API, and an
 * authorizer that grants nothing without an ACL — to a user, or to an anonymous client on the PLAINTEXT listener.
 */
class SecureKafkaTest {
    static SecureKafka kafka;

    @BeforeAll
    static void start() {
        kafka = SecureKafka.start();
        kafka.createUsers(Map.of("alice", "alice-pw"));
        try (Admin admin = KafkaClients.admin(kafka.superUser())) {
            admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() {
        if (kafka != null) kafka.close();
    }

    static Throwable send(Settings settings) {
        Map<String, Object> own = Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000, ProducerConfig.RETRIES_CONFIG, 0);
        try (KafkaProducer<String, String> p =
                KafkaClients.producer(settings, own, new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>("t", "k", "v")).get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    void theSuperUserMayWrite_aUserWithoutAnAclMayNot() {
        assertThat(send(kafka.superUser())).isNull();
        assertThat(send(Settings.with(kafka.clientSettings("alice", "alice-pw"))))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aWrongPasswordIsRefusedAtAuthentication() {
        assertThat(send(Settings.with(kafka.clientSettings("alice", "wrong"))))
                .isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void anAnonymousClientIsRefusedEverything() throws Exception {
        Settings anonymous = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, kafka.anonymousBootstrap()));
        assertThat(send(anonymous)).isInstanceOf(TopicAuthorizationException.class);
        try (Admin admin = KafkaClients.admin(anonymous)) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .as("no topic is visible to ANONYMOUS")
                    .isEmpty();
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("x", 1, (short) 1)))
                            .all()
                            .get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }
}
