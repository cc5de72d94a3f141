package dev.seckill.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/** Testcontainers Kafka, used only when a Docker engine answers. */
final class DockerKafka {
    private DockerKafka() {}

    static boolean engineAvailable() {
        if ("false".equals(System.getenv("SECKILL_USE_DOCKER"))) return false;
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

    @SuppressWarnings("resource")
    static String start() {
        KafkaContainer kafka = new KafkaContainer("apache/kafka:4.0.0");
        kafka.start();
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::stop, "stop-test-kafka-container"));
        return kafka.getBootstrapServers();
    }
}
