package dev.seckill.stack;

import dev.seckill.kit.config.JitChoice;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft Kafka node (combined broker+controller) running in its own JVM from the Kafka jars that Maven resolved for
 * this module: a single-node cluster by default, or one node of a {@link KafkaCluster}. Data and log live under
 * {@code dir}.
 */
public final class KafkaBroker implements AutoCloseable {
    private static final String CLASSPATH_RESOURCE = "kafka-broker.classpath";

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final int nodeId;
    private final String voters;
    private final String clusterId;
    private final int replication;
    private BrokerSecurity security; // null: PLAINTEXT, no authorizer
    private Process process;

    /** A single-node cluster: node 1, its own controller quorum, replication factor 1. */
    public KafkaBroker(Path dir, int port, int controllerPort) {
        this(dir, port, controllerPort, 1, "1@127.0.0.1:" + controllerPort, Uuid.randomUuid() + "", 1);
    }

    /**
     * One node of a cluster.
     *
     * @param voters      the controller quorum, {@code id@host:port,...}, the same on every node
     * @param clusterId   the cluster's id, the same on every node (formatted into the storage on first start)
     * @param replication the replication factor of Kafka's internal topics (offsets, transactions), min ISR one less
     */
    public KafkaBroker(
            Path dir, int port, int controllerPort, int nodeId, String voters, String clusterId, int replication) {
        this.dir = dir.toAbsolutePath();
        this.port = port;
        this.controllerPort = controllerPort;
        this.nodeId = nodeId;
        this.voters = voters;
        this.clusterId = clusterId;
        this.replication = replication;
    }

    /** A broker on two free ports in a fresh temporary folder. */
    public static KafkaBroker onFreePorts() {
        try {
            return new KafkaBroker(
                    ServerProcess.tempDir("seckill-kafka-"), ServerProcess.freePort(), ServerProcess.freePort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** Settings whose Kafka clients reach this broker (a secured one's: as its super user). */
    public Settings settings() {
        return Settings.with(
                security == null
                        ? Map.of(Settings.KAFKA_BOOTSTRAP, bootstrap())
                        : security.client(bootstrap(), security.superUser(), security.superPassword()));
    }

    /** Secures the node before it is first started ({@link SecureKafka}). */
    KafkaBroker secured(BrokerSecurity security) {
        this.security = security;
        return this;
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    public Path log() {
        return dir.resolve("broker.log");
    }

    public Process process() {
        return process;
    }

    /** Formats the storage on first use, starts the broker and waits until it answers metadata requests. */
    public KafkaBroker start() {
        launch();
        return awaitReady();
    }

    /** Waits until the node answers metadata requests (a node of a cluster does once a quorum of controllers runs). */
    public KafkaBroker awaitReady() {
        ServerProcess.awaitReady(
                "Kafka broker at " + bootstrap(),
                () -> answersMetadata(settings()),
                process,
                Duration.ofSeconds(120),
                log());
        return this;
    }

    /** Formats the storage on first use and starts the node's JVM, without waiting for it. */
    public KafkaBroker launch() {
        try {
            Files.createDirectories(dir.resolve("data"));
            Path props = dir.resolve("server.properties");
            Files.writeString(props, serverProperties());
            Path log4j = dir.resolve("log4j2.properties");
            Files.writeString(log4j, BrokerProperties.LOG4J2);
            String cp = brokerClasspath();
            if (!Files.exists(dir.resolve("data/meta.properties"))) {
                List<String> format = new ArrayList<>(List.of(
                        javaBin(),
                        "-XX:TieredStopAtLevel=1", // a tool of a few seconds: C2 would not repay its compiling
                        "-XX:+UseSerialGC",
                        "-cp",
                        cp,
                        "-Dlog4j2.configurationFile=" + log4j,
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        clusterId,
                        "-c",
                        props.toString()));
                if (security != null) format.addAll(security.formatArgs());
                ServerProcess.run(format, Duration.ofMinutes(1));
            }
            // 2 GB at most: with 512 MB a broker that had served a day of tests and benchmarks (hundreds of partitions,
            // thousands of transactional producer ids) ran its heap ~85% full, and its mixed and remark pauses
            // (30-40 ms) were the gateway's p99. The G1 flags are those of Kafka's own kafka-run-class.sh
            // (KAFKA_JVM_PERFORMANCE_OPTS): without the 20 ms pause goal G1 grew the young generation until one young
            // pause took 77 ms on these two busy cores
            List<String> cmd = new ArrayList<>(List.of(
                    javaBin(),
                    "-Xms256m",
                    replication > 1 ? "-Xmx1g" : "-Xmx2g",
                    "-XX:+UseG1GC",
                    "-XX:MaxGCPauseMillis=20",
                    "-XX:InitiatingHeapOccupancyPercent=35",
                    "-XX:+ExplicitGCInvokesConcurrent",
                    "-Dlog4j2.configurationFile=" + log4j,
                    "-cp",
                    cp,
                    "kafka.Kafka",
                    props.toString()));
            // SECKILL_JIT: a test's own broker lives a minute; ./seckill test starts its shared one tiered
            cmd.addAll(1, JitChoice.jvmOptions());
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            Files.writeString(dir.resolve("kafka.pid"), Long.toString(process.pid()));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when a Kafka broker at {@code bootstrap} answers a describe-cluster request within 3 s. */
    public static boolean answersMetadata(String bootstrap) {
        return answersMetadata(Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, bootstrap)));
    }

    /** As above, for a client configured by {@code settings} (its bootstrap and security). */
    public static boolean answersMetadata(Settings settings) {
        String[] hp = settings.kafkaBootstrap().split(",")[0].split(":");
        if (!ServerProcess.answers(hp[0], Integer.parseInt(hp[1]))) return false;
        Map<String, Object> timeouts = Map.of(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                3000);
        try (Admin admin = KafkaClients.admin(settings, timeouts)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    /** Graceful stop (SIGTERM), waiting up to 30 s before killing. */
    public void stop() {
        if (process == null) return;
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, as a crash would. */
    public void kill() {
        if (process == null) return;
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private String serverProperties() {
        return BrokerProperties.of(nodeId, voters, port, controllerPort, dir.resolve("data"), replication, security);
    }

    /** The broker's own classpath (kafka_2.13, kafka-tools): what runs Kafka's command-line tools too. */
    public static String brokerClasspath() {
        try (InputStream in = KafkaBroker.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null)
                throw new IllegalStateException(
                        "missing " + CLASSPATH_RESOURCE + ": build local-stack with Maven first");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
