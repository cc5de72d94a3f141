package dev.seckill.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers Kafka. On a Docker engine (where one answers), Apache's image; on podman's Docker-compatible API
 * service, which {@code ./seckill test} starts where podman runs ({@code SECKILL_PODMAN_API=1}, {@code DOCKER_HOST} its
 * socket, Ryuk off: podman removes what the test removes), the project's own Kafka image, declared a compatible
 * substitute for {@code apache/kafka} (it starts its node where that image does): nothing is pulled.
 */
public final class DockerKafka {
    /** The Kafka image {@code ./seckill images} builds. */
    public static final String PROJECT_IMAGE = "localhost/seckill/kafka:0.1.0";

    private DockerKafka() {}

    /** Whether the container API is podman's service, started for the suite. */
    static boolean podmanApi() {
        return "1".equals(System.getenv("SECKILL_PODMAN_API"));
    }

    /** Whether a Docker engine (not podman's API, on which only the project's own images run) answers here. */
    static boolean engineAvailable() {
        if ("false".equals(System.getenv("SECKILL_USE_DOCKER")) || podmanApi()) return false;
        return answers();
    }

    /** Null when a KafkaContainer can run here on the project's image through podman's API, else why not. */
    public static String cannotRunOnPodman() {
        if (!podmanApi())
            return "podman's API service is not running for this suite (./seckill test starts it where podman runs)";
        if (!answers()) return "podman's API service at " + System.getenv("DOCKER_HOST") + " does not answer";
        try {
            DockerClientFactory.instance()
                    .client()
                    .inspectImageCmd(PROJECT_IMAGE)
                    .exec();
        } catch (RuntimeException e) {
            return "no " + PROJECT_IMAGE + " here (./seckill images builds it)";
        }
        return null;
    }

    private static boolean answers() {
        // no socket and no DOCKER_HOST: no engine, and no need to let Testcontainers log its search as an error
        if (System.getenv("DOCKER_HOST") == null && !Files.exists(Path.of("/var/run/docker.sock"))) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    /** A Kafka container, not started: the project's image on podman's API, Apache's on a Docker engine. */
    @SuppressWarnings("resource")
    public static KafkaContainer container() {
        if (!podmanApi()) return new KafkaContainer("apache/kafka:4.0.0");
        return new KafkaContainer(DockerImageName.parse(PROJECT_IMAGE).asCompatibleSubstituteFor("apache/kafka"))
                // the image's entrypoint starts a node from KAFKA_* at once; KafkaContainer's command waits for the
                // starter script it copies in (the advertised listeners), then runs the node the same way
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/usr/bin/env"));
    }

    @SuppressWarnings("resource")
    static String start() {
        KafkaContainer kafka = container();
        kafka.start();
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::stop, "stop-test-kafka-container"));
        return kafka.getBootstrapServers();
    }
}
