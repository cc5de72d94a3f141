package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.seckill.stack.KafkaBroker;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The Job of {@code deploy/k8s/base/topics-job.yaml} run as its pod runs it: the container's command and script, read
 * from the manifest, run by bash with only the Job's environment, where Apache Kafka's image would have
 * {@code /opt/kafka/bin/kafka-topics.sh} a stand-in that does what that script does — Kafka's own tool
 * ({@code org.apache.kafka.tools.TopicCommand}, on the broker's classpath) in a JVM of its own per call, with
 * {@code kafka-run-class.sh}'s default heap, 256 MB (C1 only, the serial collector and a class archive made by the
 * first call: the sixteen short-lived JVMs of two runs start sooner) — and where the Job mounts the Secret
 * {@code seckill-topics-client} a folder that holds the given {@code client.properties}, or nothing (the Secret is
 * optional).
 */
final class ShippedTopicsJob {
    static final Path MANIFEST = Examples.ROOT
            .resolve("deploy/k8s/base/topics-job.yaml")
            .toAbsolutePath()
            .normalize();
    /** Where Apache Kafka's image has the tool the script calls. */
    static final String KAFKA_HOME = "/opt/kafka/";

    private static final String TOOL = "org.apache.kafka.tools.TopicCommand";

    /** How one run ended: {@code ended} false when it was stopped at its bound. */
    record Run(boolean ended, int exitCode, String output) {
        boolean succeeded() {
            return ended && exitCode == 0;
        }
    }

    private static Path classArchive;

    /** Where the stand-in's class archive is kept: a folder of this JVM's own, gone with it. */
    private static synchronized Path classArchive() throws IOException {
        if (classArchive == null)
            classArchive = ServerProcess.tempDir("seckill-topics-job-cds-").resolve("kafka-topics.jsa");
        return classArchive;
    }

    private final List<String> command;
    private final String script;
    private final String secretMount;
    private final Map<String, String> env;

    private ShippedTopicsJob(List<String> command, String script, String secretMount, Map<String, String> env) {
        this.command = command;
        this.script = script;
        this.secretMount = secretMount;
        this.env = env;
    }

    /** The Job's container as the manifest has it: command, script, the Secret's mount and the literal variables. */
    static ShippedTopicsJob read() throws IOException {
        JsonNode job = new YAMLMapper().readTree(MANIFEST.toFile());
        assertThat(job.path("kind").asText()).isEqualTo("Job");
        JsonNode pod = job.path("spec").path("template").path("spec");
        assertThat(pod.path("containers")).as("the Job's containers").hasSize(1);
        JsonNode container = pod.path("containers").get(0);
        List<String> command = new ArrayList<>();
        container.path("command").forEach(c -> command.add(c.asText()));
        assertThat(container.path("args"))
                .as("the container's args: the script")
                .hasSize(1);
        String script = container.path("args").get(0).asText();
        String secretVolume = null;
        for (JsonNode v : pod.path("volumes"))
            if (v.path("secret").path("secretName").asText().equals("seckill-topics-client"))
                secretVolume = v.path("name").asText();
        assertThat(secretVolume)
                .as("the volume of the Secret seckill-topics-client")
                .isNotNull();
        String secretMount = null;
        for (JsonNode m : container.path("volumeMounts"))
            if (m.path("name").asText().equals(secretVolume))
                secretMount = m.path("mountPath").asText();
        assertThat(secretMount).as("where the container mounts " + secretVolume).isNotNull();
        assertThat(script).contains(KAFKA_HOME + "bin/kafka-topics.sh").contains(secretMount + "/");
        Map<String, String> env = new HashMap<>();
        for (JsonNode e : container.path("env"))
            if (e.has("value")) env.put(e.path("name").asText(), e.path("value").asText());
        return new ShippedTopicsJob(command, script, secretMount, env);
    }

    /**
     * Runs the Job's script once in {@code dir} with {@code overrides} on the Job's variables (the ConfigMap's
     * {@code KAFKA_BOOTSTRAP} among them), the Secret holding {@code clientProperties} (null: no Secret), and stops it
     * after {@code bound}.
     */
    Run run(Path dir, Map<String, String> overrides, Properties clientProperties, Duration bound)
            throws IOException, InterruptedException {
        Path image = Files.createDirectories(dir.resolve("image"));
        Path tool = Files.createDirectories(image.resolve("bin")).resolve("kafka-topics.sh");
        // the first call of this JVM's runs archives the classes it loaded (application class-data sharing), and the
        // later calls start from that archive: half the start of each (1.1 s against 2.4 s on an idle machine)
        String archive = classArchive().toString();
        Files.writeString(
                tool,
                "#!/bin/sh\nif [ -s '" + archive + "' ]; then cds='-XX:SharedArchiveFile=" + archive + "';"
                        + " else cds='-XX:ArchiveClassesAtExit=" + archive + "'; fi\n"
                        + "exec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                        + "' -Xmx256M -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \"$cds\" -Xlog:cds=off -Xlog:cds+dynamic=off"
                        + " -cp '" + KafkaBroker.brokerClasspath() + "' " + TOOL + " \"$@\"\n");
        assertThat(tool.toFile().setExecutable(true)).isTrue();
        Path mount = Files.createDirectories(dir.resolve("secret"));
        if (clientProperties != null) {
            try (var out = Files.newBufferedWriter(mount.resolve("client.properties"), StandardCharsets.UTF_8)) {
                clientProperties.store(out, "the Secret seckill-topics-client's client.properties");
            }
        }
        String local = script.replace(KAFKA_HOME, image + "/").replace(secretMount + "/", mount + "/");
        List<String> argv = new ArrayList<>(command);
        argv.add(local);
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
        pb.environment().clear(); // the pod's environment: the Job's variables alone
        pb.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        pb.environment().putAll(env);
        pb.environment().putAll(overrides);
        Path output = dir.resolve("job.out");
        Process p = pb.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        return new Run(ended, ended ? p.exitValue() : -1, Files.readString(output));
    }
}
