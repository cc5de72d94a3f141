package dev.seckill.stack;

/**
 * Whether a Docker engine answers here — not podman's API service the suite starts, on which only the project's own
 * images run (nothing is pulled): the Testcontainers tests of public images run only then, skipped cleanly otherwise.
 */
public final class DockerEngine {
    private DockerEngine() {}

    public static boolean available() {
        return DockerKafka.engineAvailable();
    }
}
