package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.ops.acl.PipelineAcls;
import dev.seckill.infra.ops.acl.PipelineAcls.Role;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.stack.SecureKafka;
import dev.seckill.stack.ServerProcess;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pipeline on a broker secured as a managed cluster is — SASL_SSL (SCRAM-SHA-512, the broker verified against its
 * CA), an authorizer that refuses what no ACL allows — with the ACLs shipped in {@code deploy/kafka-acls.sh}, applied as
 * an operator applies them: the script itself, run with Kafka's own {@code kafka-acls.sh} over SASL_SSL (the ACLs it
 * makes are exactly {@link dev.seckill.infra.ops.acl.PipelineAcls}'s): each service runs as its own
 * principal and a sale is decided and written end to end; each principal is refused what its role does not do. And the
 * topics Job of {@code deploy/k8s/base/topics-job.yaml}, run as its pod runs it ({@link ShippedTopicsJob}), on the same
 * SASL_SSL listener: with the Secret {@code seckill-topics-client}'s {@code client.properties} it makes every topic of
 * the pipeline as it says, and again without changing one; without the Secret it fails and makes nothing.
 */
class SecureKafkaPipelineTest {
    /** The names the topics Job's script writes out: the pipeline's, unprefixed (no namespace here has them). */
    static final Topics JOB_TOPICS = new Topics(Topics.DEFAULT_PREFIX);

    static SecureKafka kafka;
    static final Map<Role, String> PASSWORDS = new HashMap<>();
    static Namespace ns;
    static Pipeline pipeline;
    static OutcomeLog log;

    /** The Kafka settings of a role's principal. */
    static Map<String, String> as(Role role) {
        return kafka.clientSettings(role.defaultPrincipal().substring("User:".length()), PASSWORDS.get(role));
    }

    @BeforeAll
    static void start() throws Exception {
        kafka = SecureKafka.start();
        Map<String, String> users = new HashMap<>();
        for (Role r : Role.values()) {
            PASSWORDS.put(r, UUID.randomUUID().toString());
            users.put(r.defaultPrincipal().substring("User:".length()), PASSWORDS.get(r));
        }
        kafka.createUsers(users);
        // the namespace's own Kafka clients (its audits, the outcome log) are the operator's tools
        Settings base = TestNamespaces.onBroker(2, Map.of()).and(as(Role.OPERATOR));
        ns = TestNamespaces.create(
                base, "secure-" + UUID.randomUUID().toString().substring(0, 8));
        // the topics, then the ACLs as an operator applies them on a secured cluster: the shipped script, run with
        // Kafka's own kafka-acls.sh over SASL_SSL as the super user
        Settings superUser = kafka.superUser(ns.settings());
        TopicProvisioner.ensure(
                superUser, new Topics(superUser.topicPrefix()), superUser.get(SharedSettings.TOPIC_PARTITIONS));
        ShippedAclScript.run(superUser, Files.createTempDirectory("kafka-acls"));
        List<AclBinding> wanted = PipelineAcls.bindings(superUser);
        try (Admin admin = KafkaClients.admin(superUser)) {
            Awaitility.await() // the brokers apply what the controller committed a moment later
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> Set.copyOf(admin.describeAcls(AclBindingFilter.ANY)
                                    .values()
                                    .get(30, TimeUnit.SECONDS))
                            .containsAll(wanted));
            assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS))
                    .as("the script made exactly the pipeline's ACLs")
                    .containsExactlyInAnyOrderElementsOf(wanted);
        }
        pipeline = new Pipeline(ns)
                .as("stock-stream", as(Role.STOCK_STREAM))
                .as("order-writer", as(Role.ORDER_WRITER))
                .as("ingress-gateway", as(Role.GATEWAY))
                .as("upstream", as(Role.UPSTREAM))
                .start();
        log = new OutcomeLog(ns.settings(), pipeline.topics());
    }

    @AfterAll
    static void stop() {
        if (log != null) log.close();
        if (pipeline != null) pipeline.close();
        if (kafka != null) kafka.close();
        if (ns != null) {
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }

    @Test
    void aSaleIsDecidedAndWritten_eachServiceUnderItsOwnPrincipal() throws Exception {
        long goods = 4001;
        pipeline.openSale(goods, 10, Duration.ofHours(1), 1); // upstream's command, decided by stock-stream
        HttpLoad.Result load = HttpLoad.run(
                LoadSpec.closed(pipeline.gatewayPort(), goods, 60, 10, 30, 11, pipeline::bearer)
                        .keepingIds(),
                n -> {});
        assertThat(load.errors()).isZero();
        assertThat(load.acceptedIds()).isNotEmpty();
        assertThat(Drain.await(pipeline, log, goods, load.acceptedIds(), Duration.ofSeconds(60), n -> {}))
                .as("decided by stock-stream, orders written by order-writer")
                .isTrue();
        SaleAudit audit = SaleAudit.of(pipeline, goods, load.acceptedIds(), log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS)).isEqualTo(10);
        assertThat(audit.ordersInDb).isEqualTo(10);

        Settings reconciler = ns.settings().and(as(Role.RECONCILER));
        try (var commands = ReliableProducers.create(reconciler);
                var r = new Reconciler(
                        reconciler, pipeline.db(), pipeline.redis(), commands, new SimpleMeterRegistry(), true)) {
            List<Reconciler.Row> rows = r.cycle(goods);
            assertThat(rows).extracting(Reconciler.Row::verdict).containsExactly("OK");
        }
    }

    @Test
    void theUpstreamProducerMayNotWriteAnOutcome_andNothingIsWritten() throws Exception {
        String success = pipeline.topics().success();
        long before = endOffsets(success);
        assertThat(send(ns.settings().and(as(Role.UPSTREAM)), success)).isInstanceOf(TopicAuthorizationException.class);
        assertThat(endOffsets(success)).as("nothing appended to " + success).isEqualTo(before);
    }

    @Test
    void theGatewayMayNotWriteTheLedger_andNothingIsWritten() throws Exception {
        String ledger = pipeline.topics().ledger();
        long before = endOffsets(ledger);
        assertThat(send(ns.settings().and(as(Role.GATEWAY)), ledger)).isInstanceOf(TopicAuthorizationException.class);
        assertThat(endOffsets(ledger)).as("nothing appended to " + ledger).isEqualTo(before);
    }

    @Test
    void anAnonymousClientIsRefusedEverything_andAWrongPasswordIsNotLetIn() throws Exception {
        Settings anonymous = ns.settings()
                .and(Map.of(
                        "kafka.bootstrap", kafka.anonymousBootstrap(),
                        "kafka.security.protocol", "PLAINTEXT",
                        "kafka.sasl.username", "",
                        "kafka.sasl.password", "",
                        "kafka.ssl.truststore.location", "",
                        "kafka.ssl.truststore.password", ""));
        assertThat(send(anonymous, pipeline.topics().commands())).isInstanceOf(TopicAuthorizationException.class);
        try (Admin admin = KafkaClients.admin(anonymous)) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).isEmpty();
        }
        TopicPartition outcomes = new TopicPartition(pipeline.topics().success(), 0);
        try (KafkaConsumer<String, byte[]> c = KafkaClients.consumer(anonymous, Map.of())) {
            c.assign(List.of(outcomes));
            c.seekToBeginning(List.of(outcomes));
            assertThatThrownBy(() -> c.poll(Duration.ofSeconds(10))).isInstanceOf(TopicAuthorizationException.class);
        }
        Settings wrongPassword = ns.settings().and(kafka.clientSettings("seckill-gateway", "not-its-password"));
        assertThat(send(wrongPassword, pipeline.topics().commands())).isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void theServicesCreateTopicsOnlyInTheirWarmUpNamespaces() throws Exception {
        String prefix = ns.settings().topicPrefix();
        for (Role role : List.of(Role.GATEWAY, Role.STOCK_STREAM)) {
            Settings own = ns.settings().and(as(role));
            Topics warmup = new Topics(prefix + "warmup-" + role.id + ".");
            assertThat(TopicProvisioner.ensure(own, warmup, 1))
                    .as(role + " makes its warm-up's topics")
                    .hasSize(8);
            try (Admin admin = KafkaClients.admin(own)) {
                admin.deleteTopics(warmup.all()).all().get(30, TimeUnit.SECONDS);
            }
        }
        assertThatThrownBy(() -> TopicProvisioner.ensure(
                        ns.settings().and(as(Role.GATEWAY)), new Topics(prefix + "elsewhere."), 1))
                .as("the gateway creates no topic outside its warm-up's")
                .hasMessageContaining("TopicAuthorizationException");
        assertThatThrownBy(() -> TopicProvisioner.ensure(
                        ns.settings().and(as(Role.ORDER_WRITER)), new Topics(prefix + "warmup-w."), 1))
                .as("order-writer has no warm-up namespace")
                .hasMessageContaining("TopicAuthorizationException");
    }

    @Test
    void theTopicsJob_withItsSecret_makesEveryTopicAsItSays_andARunAgainChangesNothing() throws Exception {
        // Given the Secret seckill-topics-client: the super user's SASL_SSL client settings; one broker
        Properties secret = new Properties();
        KafkaClients.common(kafka.superUser()).forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) secret.setProperty(k, String.valueOf(v));
        });
        assertThat(secret.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(secret.stringPropertyNames())
                .contains("sasl.mechanism", "sasl.jaas.config", "ssl.truststore.location", "ssl.truststore.password");
        assertThat(topicsJobTopics()).as("none yet").isEmpty();
        try (Admin admin = KafkaClients.admin(kafka.superUser())) {
            // When the Job runs
            ShippedTopicsJob.Run first = topicsJob(secret, Duration.ofMinutes(3));

            // Then it succeeds, and every topic of the pipeline is there as the script makes it
            assertThat(first.succeeded())
                    .as("the Job's script: " + first.output())
                    .isTrue();
            Map<String, TopicDescription> made =
                    admin.describeTopics(JOB_TOPICS.all()).allTopicNames().get(30, TimeUnit.SECONDS);
            assertThat(made.keySet()).containsExactlyInAnyOrderElementsOf(JOB_TOPICS.all());
            for (TopicDescription t : made.values()) {
                assertThat(t.partitions()).as(t.name() + "'s partitions").hasSize(12);
                assertThat(t.partitions())
                        .allSatisfy(p -> assertThat(p.replicas())
                                .as(t.name() + ": REPLICAS=1")
                                .hasSize(1));
            }
            Map<ConfigResource, Config> configs = admin.describeConfigs(JOB_TOPICS.all().stream()
                            .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                            .toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
            for (String t : JOB_TOPICS.all()) {
                Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, t));
                boolean ledger = t.equals(JOB_TOPICS.ledger());
                assertThat(setOnTheTopic(c, "min.insync.replicas"))
                        .as(t + ": MIN_ISR")
                        .isEqualTo("1");
                assertThat(setOnTheTopic(c, "retention.ms"))
                        .as(t + " kept " + (ledger ? "for ever" : "30 days"))
                        .isEqualTo(ledger ? "-1" : "2592000000");
                if (ledger)
                    assertThat(setOnTheTopic(c, "retention.bytes")).as(t).isEqualTo("-1");
            }

            // When it runs again (its pod retried, the Job applied once more)
            ShippedTopicsJob.Run again = topicsJob(secret, Duration.ofMinutes(3));

            // Then it succeeds, and the topics are the ones the first run made
            assertThat(again.succeeded())
                    .as("the Job's script again: " + again.output())
                    .isTrue();
            assertThat(topicIds(admin.describeTopics(JOB_TOPICS.all())
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS)))
                    .as("not one topic made anew")
                    .isEqualTo(topicIds(made));
        } finally {
            deleteTopicsJobTopics();
        }
    }

    @Test
    void theTopicsJob_withoutItsSecret_failsAtItsFirstCall_andMakesNothing() throws Exception {
        // Given no Secret seckill-topics-client: no client.properties, so a PLAINTEXT client for the SASL_SSL listener
        assertThat(topicsJobTopics()).as("none yet").isEmpty();
        try {
            // When the Job runs (bounded: with the Secret a call takes seconds)
            ShippedTopicsJob.Run run = topicsJob(null, Duration.ofSeconds(30));

            // Then it fails at its first call (the client reads the broker's TLS alert as a response larger than
            // kafka-topics.sh's heap, and its admin client dies), and no topic was made
            assertThat(run.ended())
                    .as("the Job's script ended: " + run.output())
                    .isTrue();
            assertThat(run.exitCode()).as("the Job's script: " + run.output()).isNotZero();
            assertThat(run.output().split("Error while executing topic command", -1))
                    .as("one call, then set -e: " + run.output())
                    .hasSize(2);
            assertThat(topicsJobTopics()).isEmpty();
        } finally {
            deleteTopicsJobTopics();
        }
    }

    /** The topics Job of the base, once, on this cluster's SASL_SSL listener: REPLICAS and MIN_ISR 1 (one broker). */
    static ShippedTopicsJob.Run topicsJob(Properties secret, Duration bound) throws Exception {
        return ShippedTopicsJob.read()
                .run(
                        ServerProcess.tempDir("seckill-topics-job-"), // gone with this JVM
                        Map.of("KAFKA_BOOTSTRAP", kafka.bootstrap(), "REPLICAS", "1", "MIN_ISR", "1"),
                        secret,
                        bound);
    }

    /** A topic's config when it is the topic's own (the script set it), not the broker's default; else null. */
    static String setOnTheTopic(Config config, String name) {
        ConfigEntry e = config.get(name);
        return e != null && e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG ? e.value() : null;
    }

    static Map<String, Uuid> topicIds(Map<String, TopicDescription> described) {
        return described.values().stream().collect(Collectors.toMap(TopicDescription::name, TopicDescription::topicId));
    }

    /** Which of the topics Job's topics the cluster has. */
    static Set<String> topicsJobTopics() throws Exception {
        try (Admin admin = KafkaClients.admin(kafka.superUser())) {
            Set<String> present = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            return JOB_TOPICS.all().stream().filter(present::contains).collect(Collectors.toSet());
        }
    }

    static void deleteTopicsJobTopics() throws Exception {
        Set<String> made = topicsJobTopics();
        if (made.isEmpty()) return;
        try (Admin admin = KafkaClients.admin(kafka.superUser())) {
            admin.deleteTopics(made).all().get(30, TimeUnit.SECONDS);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> topicsJobTopics().isEmpty());
    }

    /** Sends one record as {@code settings}; what refused it (null: written). */
    static Throwable send(Settings settings, String topic) {
        Map<String, Object> own = Map.of(
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                15_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                15_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                10_000);
        try (KafkaProducer<String, byte[]> p = ReliableProducers.create(settings, own)) {
            p.send(new ProducerRecord<>(topic, "4001", "{}".getBytes())).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    /** The sum of a topic's end offsets (transaction markers included), read by the operator. */
    static long endOffsets(String topic) throws Exception {
        try (Admin admin = KafkaClients.admin(ns.settings())) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(r -> r.offset())
                    .sum();
        }
    }
}
