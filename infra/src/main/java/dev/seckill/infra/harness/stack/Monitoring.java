package dev.seckill.infra.harness.stack;

import dev.seckill.kit.config.Settings;
import dev.seckill.stack.ServerProcess;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code up --services --monitoring}: Debian's Prometheus on 127.0.0.1:9095 (9090 is left to a system Prometheus the
 * package may have started) scraping the four services at their configured ports every 5 s, with the shipped rules
 * ({@code monitoring/alerts.yml}); its data under {@code .seckill/services/prometheus-data}.
 */
final class Monitoring {
    static final int PORT = 9095;
    static final Path BINARY = Path.of("/usr/bin/prometheus");
    /** The shipped rules, from the repository's root (the launcher's directory) or a module's. */
    static Path rules() {
        Path here = Path.of("monitoring", "alerts.yml").toAbsolutePath();
        return Files.exists(here)
                ? here
                : Path.of("..", "monitoring", "alerts.yml").toAbsolutePath().normalize();
    }

    private final Settings settings;
    private final Path dir;
    private final PrintStream out;
    private final int port;

    Monitoring(Settings settings, Path dir, PrintStream out, int port) {
        this.settings = settings;
        this.dir = dir;
        this.out = out;
        this.port = port;
    }

    void up() throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY) && !install()) return;
        if (Pids.alive(pidFile())) {
            out.printf("%-13s http://127.0.0.1:%d  running (ours)%n", "prometheus", port);
            return;
        }
        if (ServerProcess.answers("127.0.0.1", port)) {
            out.printf("%-13s port %d is taken by something else: not started%n", "prometheus", port);
            return;
        }
        Files.writeString(dir.resolve("prometheus.yml"), config());
        Process p = new ProcessBuilder(
                        BINARY.toString(),
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("prometheus.log").toFile()))
                .redirectInput(new File("/dev/null"))
                .start();
        Files.writeString(pidFile(), Long.toString(p.pid()));
        awaitReady(p);
        out.printf(
                "%-13s http://127.0.0.1:%d  started (pid %d; alerts http://127.0.0.1:%d/alerts, rules %s, log %s)%n",
                "prometheus", port, p.pid(), port, rules(), dir.resolve("prometheus.log"));
    }

    /** The scrape configuration of monitoring/prometheus.yml, at the ports this stack's settings give. */
    String config() {
        StringBuilder b = new StringBuilder("global: {scrape_interval: 5s, evaluation_interval: 5s}\n")
                .append("rule_files: ['")
                .append(rules())
                .append("']\nscrape_configs:\n");
        for (ServiceStack.Service s : ServiceStack.ALL) {
            String job = s.name().equals("gateway") ? "ingress-gateway" : s.name();
            b.append("  - job_name: ")
                    .append(job)
                    .append("\n    static_configs: [{targets: ['127.0.0.1:")
                    .append(settings.get(s.port()))
                    .append("'], labels: {service: ")
                    .append(job)
                    .append("}}]\n");
        }
        return b.toString();
    }

    private boolean install() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            out.printf(
                    "%-13s not installed: run 'sudo apt-get install -y prometheus', then up --monitoring again%n",
                    "prometheus");
            return false;
        }
        out.printf("%-13s installing the Debian package prometheus%n", "prometheus");
        Process p = new ProcessBuilder(List.of("apt-get", "install", "-y", "-qq", "prometheus"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.waitFor() == 0 && Files.isExecutable(BINARY);
    }

    private void awaitReady(Process p) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive())
                throw new IllegalStateException("prometheus exited; its log: " + dir.resolve("prometheus.log"));
            try {
                if (http.send(
                                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                                                .timeout(Duration.ofSeconds(2))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) return;
            } catch (IOException notYet) {
                // starting
            }
            TimeUnit.MILLISECONDS.sleep(200); // polling another process
        }
        throw new IllegalStateException("prometheus not ready in a minute; its log: " + dir.resolve("prometheus.log"));
    }

    /** Prometheus when {@code up --monitoring} started it, else null. */
    Component component() {
        if (!Files.exists(pidFile())) return null;
        return new Component(
                "prometheus",
                "127.0.0.1:" + port,
                ServerProcess.answers("127.0.0.1", port),
                "alerts http://127.0.0.1:" + port + "/alerts");
    }

    void down() {
        Pids.stop(out, "prometheus", pidFile());
    }

    private Path pidFile() {
        return dir.resolve("prometheus.pid");
    }
}
