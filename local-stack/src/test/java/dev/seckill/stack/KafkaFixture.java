package dev.seckill.stack;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way tests obtain a Kafka broker, shared by all tests of a JVM:
 * <ol>
 *   <li>{@code SECKILL_KAFKA_BOOTSTRAP} (set by {@code ./seckill test}) when a broker answers there;</li>
 *   <li>else Testcontainers Kafka when a Docker engine is available;</li>
 *   <li>else a local KRaft broker from the Maven jars on free ports (our machines: no Docker engine).</li>
 * </ol>
 * Tests that stop or kill a broker start their own {@link KafkaBroker} instead.
 */
public final class KafkaFixture {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaFixture.class);
    private static String bootstrap;

    private KafkaFixture() {}

    /** Settings whose Kafka clients reach the fixture's broker. */
    public static Settings settings() {
        return Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, bootstrap()));
    }

    public static synchronized String bootstrap() {
        if (bootstrap != null) return bootstrap;
        if (Boolean.getBoolean("seckill.tests.fast"))
            throw new IllegalStateException(
                    "the fast layer (-Pfast, @Tag(\"fast\")) runs without Kafka: a test that needs"
                            + " a broker is not a fast one; remove its tag");
        String configured = System.getenv("SECKILL_KAFKA_BOOTSTRAP");
        if (configured != null && !configured.isBlank() && KafkaBroker.answersMetadata(configured)) {
            LOG.info("tests use the Kafka broker at {}", configured);
            return bootstrap = configured;
        }
        if (DockerKafka.engineAvailable()) {
            bootstrap = DockerKafka.start();
            LOG.info("tests use a Testcontainers Kafka at {}", bootstrap);
            return bootstrap;
        }
        KafkaBroker broker = KafkaBroker.onFreePorts().start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::stop, "stop-test-kafka"));
        LOG.info("no Docker engine: tests use a local KRaft broker at {}", broker.bootstrap());
        return bootstrap = broker.bootstrap();
    }
}
