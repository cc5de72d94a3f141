package dev.seckill.system.containers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * deploy/compose.yaml brought up by podman-compose under a project name of the test's own: its containers
 * ({@code <project>_<service>_1}), its network and volumes, all removed by {@link #close()}.
 */
final class ComposeProject implements AutoCloseable {
    private static final String FILE = "deploy/compose.yaml";

    /**
     * The services' warm-up before ready in the suite's containers: 1,000 requests and commands, not their 20,000 (a
     * minute of both cores per service on this machine). The warm-up itself is what {@code WarmupBeforeReadyTest}
     * tests; here it only delays the first probe answer. Given to compose by a file of the test's own beside
     * deploy/compose.yaml (that file stays as operators run it) and to kube play through the services' ConfigMap.
     */
    static final Map<String, String> SHORT_WARMUP =
            Map.of("SECKILL_GATEWAY_WARMUP_REQUESTS", "1000", "SECKILL_STREAM_WARMUP_COMMANDS", "1000");

    /**
     * The suite's JVM flags for the services' containers, as the suite's own JVMs run (docs/decisions.md, "The suite's
     * JVMs compile with C1 only"): given through {@code JDK_JAVA_OPTIONS}, which the images' {@code java} reads and
     * announces in one line on stderr ({@link #LAUNCHER_NOTE}). The file operators run sets nothing of the kind.
     */
    static final String SUITE_JVM_FLAGS = "-XX:TieredStopAtLevel=1";
    /** What the JVM's launcher prints first when {@code JDK_JAVA_OPTIONS} is set: not the service's output. */
    static final String LAUNCHER_NOTE = "NOTE: Picked up JDK_JAVA_OPTIONS: " + SUITE_JVM_FLAGS;

    private static final List<String> JAVA_SERVICES =
            List.of("ingress-gateway", "stock-stream", "stock-stream-2", "order-writer", "reconciler");

    private final String name;
    private final Map<String, String> env;
    private final Path warmupFile;

    ComposeProject(String name, Map<String, String> env) {
        this.name = name;
        this.env = Map.copyOf(env);
        this.warmupFile = Path.of("target", "containers", name + ".warmup.yaml").toAbsolutePath();
    }

    /** Starts the file's services, or only those named. */
    ComposeProject up(String... services) throws IOException {
        List<String> args = new ArrayList<>(List.of("up", "-d"));
        args.addAll(List.of(services));
        Podman.Result up =
                compose(Duration.ofMinutes(5), args.toArray(String[]::new)).orThrow("podman-compose up");
        // podman-compose goes on (exit 0) past a container podman could not create: name the one missing
        for (String service : services)
            if (Podman.podman("container", "exists", container(service)).exit() != 0)
                throw new IllegalStateException(
                        "podman-compose up made no container for " + service + ": " + Podman.tail(up.output()));
        return this;
    }

    String network() {
        return name + "_default";
    }

    String container(String service) {
        return name + "_" + service + "_1";
    }

    /** The container's address on the project's network, as another container (or a kubelet) reaches it. */
    String ip(String service) throws IOException {
        return Podman.address(container(service));
    }

    String state(String service) throws IOException {
        return Podman.podman("inspect", "--format", "{{.State.Status}}", container(service))
                .orThrow("podman inspect " + service)
                .trimmed();
    }

    void kill(String service) throws IOException {
        Podman.podman("kill", "--signal", "KILL", container(service)).orThrow("podman kill " + service);
    }

    void start(String service) throws IOException {
        Podman.podman("start", container(service)).orThrow("podman start " + service);
    }

    String logs(String service) throws IOException {
        return Podman.podman("logs", container(service)).output();
    }

    /**
     * For a failure's message: the container's state, restarts and last exit code, and the last lines of its log (a
     * CI run's reader has no other view of the containers, which are gone when it reads).
     */
    String describe(String service) {
        try {
            String state = Podman.podman(
                            "inspect",
                            "--format",
                            "{{.State.Status}}, {{.RestartCount}} restarts, last exit code {{.State.ExitCode}}",
                            container(service))
                    .trimmed();
            List<String> lines = logs(service).lines().toList();
            List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
            return service + " (" + state + "), the last " + last.size() + " of its " + lines.size() + " log lines:\n  "
                    + String.join("\n  ", last);
        } catch (IOException | RuntimeException e) {
            return service + ": not described (" + e + ")";
        }
    }

    /** Every container's log into {@code dir} (kept for a failed run's reader). */
    void saveLogs(Path dir, List<String> services) throws IOException {
        Files.createDirectories(dir);
        for (String s : services) Files.writeString(dir.resolve(s + ".log"), logs(s));
    }

    /**
     * A compose file that gives the warming services {@link #SHORT_WARMUP} and every Java service and the broker
     * {@link #SUITE_JVM_FLAGS}, merged over deploy/compose.yaml.
     */
    private Path shortWarmup() throws IOException {
        Path file = warmupFile;
        if (Files.exists(file)) return file;
        StringBuilder yaml = new StringBuilder("services:\n");
        for (String service : JAVA_SERVICES) {
            yaml.append("  ").append(service).append(":\n    environment:\n");
            yaml.append("      JDK_JAVA_OPTIONS: \"").append(SUITE_JVM_FLAGS).append("\"\n");
            if (service.equals("order-writer") || service.equals("reconciler")) continue; // they do not warm up
            SHORT_WARMUP.forEach((k, v) ->
                    yaml.append("      ").append(k).append(": \"").append(v).append("\"\n"));
        }
        // the broker of a test's own, minutes long, as the suite's own brokers run (its image's flags variable)
        yaml.append("  kafka:\n    environment:\n      KAFKA_JVM_OPTS: \"")
                .append(SUITE_JVM_FLAGS)
                .append("\"\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
        return file;
    }

    @Override
    public void close() throws IOException {
        compose(Duration.ofMinutes(3), "down", "-v", "-t", "5");
        Podman.podman("network", "rm", "-f", network());
        for (String volume : Podman.podman("volume", "ls", "-q", "--filter", "label=io.podman.compose.project=" + name)
                .trimmed()
                .split("\\s+")) if (!volume.isBlank()) Podman.podman("volume", "rm", "-f", volume);
        Files.deleteIfExists(warmupFile);
    }

    private Podman.Result compose(Duration timeout, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                "podman-compose", "-p", name, "-f", FILE, "-f", shortWarmup().toString()));
        cmd.addAll(List.of(args));
        return Podman.run(timeout, env, cmd.toArray(String[]::new));
    }
}
