package dev.seckill.stack;

/** Whether a Docker engine answers here (Testcontainers tests run only then, and are skipped cleanly otherwise). */
public final class DockerEngine {
    private DockerEngine() {}

    public static boolean available() {
        return DockerKafka.engineAvailable();
    }
}
