package dev.seckill.infra.harness.stack;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.ServiceProcess;
import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.RedisSettings;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import dev.seckill.order.OrderWriterSettings;
import dev.seckill.reconcile.ReconcilerSettings;
import dev.seckill.stack.ServerProcess;
import dev.seckill.stock.StockStreamSettings;
import dev.seckill.stock.bucket.HopSeal;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./seckill up --services [--monitoring]}: the four services as processes of their own, as production runs them
 * (each what {@code ./seckill run <service>} starts, configured by the same {@code SECKILL_*} variables), in the
 * background with a log and a pid file under {@code .seckill/services}; with {@code --monitoring} a real Prometheus
 * (Debian's package) on 127.0.0.1:9095 scraping them with {@code monitoring/alerts.yml}. {@code status} lists them and
 * {@code down} stops them.
 */
public final class ServiceStack {
    /**
     * One service: its main class, the port of its {@code /metrics} (the gateway's admin port, not its public one), the
     * path that says it is ready there (the reconciler serves no {@code /health}: its {@code /metrics} answering is its
     * start), its JVM options.
     */
    record Service(String name, String mainClass, Setting<Integer> port, String ready, List<String> jvm) {}

    static final List<Service> ALL = List.of(
            new Service(
                    "gateway",
                    "dev.seckill.gateway.GatewayApp",
                    GatewaySettings.METRICS_PORT,
                    "/health",
                    List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20")),
            new Service(
                    "stock-stream",
                    "dev.seckill.stock.StockStreamApp",
                    StockStreamSettings.METRICS_PORT,
                    "/health",
                    List.of("-XX:+UseG1GC")),
            new Service(
                    "order-writer",
                    "dev.seckill.order.OrderWriterApp",
                    OrderWriterSettings.METRICS_PORT,
                    "/health",
                    List.of("-XX:+UseG1GC")),
            new Service(
                    "reconciler",
                    "dev.seckill.reconcile.ReconcilerApp",
                    ReconcilerSettings.METRICS_PORT,
                    "/metrics",
                    List.of("-XX:+UseG1GC")));

    private static final Duration READY = Duration.ofMinutes(5);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final Settings settings;
    private final Path dir;
    private final PrintStream out;
    private final int monitoringPort;

    public ServiceStack(Settings settings, Path home, PrintStream out) {
        this(settings, home, out, Monitoring.PORT);
    }

    /** With Prometheus on another port than 9095 (a test's, beside a stack of the user's). */
    ServiceStack(Settings settings, Path home, PrintStream out, int monitoringPort) {
        this.settings = settings;
        this.dir = home.toAbsolutePath().resolve("services");
        this.out = out;
        this.monitoringPort = monitoringPort;
    }

    public void up(boolean monitoring) throws IOException, InterruptedException {
        up(monitoring, Map.of());
    }

    /**
     * Starts what is not running yet. Each service gets this JVM's environment, then the stack's own settings (where
     * Kafka, Redis and MySQL are, the prefixes, its ports) and {@code more} on top.
     */
    public void up(boolean monitoring, Map<String, String> more) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(KafkaSettings.environment(settings)); // the bootstrap and the clients' security
        env.putAll(RedisSettings.environment(settings)); // the Redis user and TLS
        env.put("SECKILL_REDIS_URL", settings.redisUrl());
        env.put("SECKILL_DB_URL", settings.dbUrl());
        env.put("SECKILL_TOPIC_PREFIX", settings.topicPrefix());
        env.put("SECKILL_REDIS_PREFIX", settings.redisPrefix());
        for (Service s : ALL) env.put(s.port().env(), Integer.toString(settings.get(s.port())));
        env.put(GatewaySettings.PORT.env(), Integer.toString(settings.get(GatewaySettings.PORT))); // its public port
        env.putAll(more);
        if (!env.containsKey(StockStreamSettings.DRAW_BEACON.env()))
            env.putAll(DrawBeacons.environment(
                    StackBeacon.start(settings, env, dir, out))); // drawn sales: the chain a drill and verify read
        gatewaySecret(env);
        if (!env.containsKey(StockStreamSettings.HOP_SECRET.env()))
            env.put(StockStreamSettings.HOP_SECRET.env(), keptSecret("stream-hop.secret"));
        // the reconciler reads the schema the order-writer migrates: it starts once the others are up
        startAll(ALL.subList(0, ALL.size() - 1), env);
        startAll(ALL.subList(ALL.size() - 1, ALL.size()), env);
        if (monitoring) new Monitoring(settings, dir, out, monitoringPort).up();
    }

    /** Starts those of {@code services} not running yet, together, and waits for each one's /health. */
    private void startAll(List<Service> services, Map<String, String> env) throws IOException, InterruptedException {
        List<Service> started = new ArrayList<>();
        for (Service s : services) {
            int port = settings.get(s.port());
            if (ServerProcess.answers("127.0.0.1", port)) {
                out.printf("%-13s :%d  answers (using it)%n", s.name(), port);
                continue;
            }
            start(s, env);
            started.add(s);
        }
        for (Service s : started) {
            long ms = awaitHealthy(s);
            out.printf(
                    "%-13s http://127.0.0.1:%d%s  started (pid %s, ready in %,d ms, log %s)%n",
                    s.name(),
                    settings.get(s.port()),
                    s.ready(),
                    Files.readString(pid(s.name())).strip(),
                    ms,
                    log(s.name()));
        }
    }

    /** Where {@code run} keeps the HS256 secret it made for the stack's gateway (when none was configured). */
    public static Path gatewaySecretFile(Path home) {
        return home.toAbsolutePath().resolve("services").resolve("gateway-auth.secret");
    }

    /** A random secret made once for this stack and kept beside the logs in {@code name}. */
    private String keptSecret(String name) throws IOException {
        Path file = dir.resolve(name);
        if (!Files.exists(file)) Files.writeString(file, HopSeal.freshKey());
        return Files.readString(file).strip();
    }

    /** Auth is on by default: without a configured secret, one is made once and kept beside the logs. */
    private void gatewaySecret(Map<String, String> env) throws IOException {
        if (!settings.get(GatewaySettings.AUTH_ENABLED)
                || !settings.get(GatewaySettings.AUTH_SECRET).isEmpty()) return;
        Path file = dir.resolve("gateway-auth.secret");
        if (!Files.exists(file)) Files.writeString(file, UUID.randomUUID() + "-" + UUID.randomUUID());
        env.put(GatewaySettings.AUTH_SECRET.env(), Files.readString(file).strip());
        out.printf(
                "gateway       JWT secret made for this stack: export %s=$(cat %s) for load --via http%n",
                GatewaySettings.AUTH_SECRET.env(), file);
    }

    private void start(Service s, Map<String, String> env) throws IOException {
        // only the variables given: the stack's services are configured by what up decided, not by this shell
        Process p = ServiceProcess.launch(
                s.mainClass(), s.jvm(), List.of(), ServiceProcess.Environment.ONLY_GIVEN, env, log(s.name()));
        Files.writeString(pid(s.name()), Long.toString(p.pid()));
    }

    private long awaitHealthy(Service s) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + READY.toNanos();
        URI health = URI.create("http://127.0.0.1:" + settings.get(s.port()) + s.ready());
        long pid = Long.parseLong(Files.readString(pid(s.name())).strip());
        while (true) {
            if (ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true))
                throw new IllegalStateException(s.name() + " exited; its log: " + log(s.name()));
            try {
                HttpResponse<Void> r = HTTP.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) return (System.nanoTime() - t0) / 1_000_000;
            } catch (IOException notYet) {
                // still starting
            }
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(s.name() + " not healthy in " + READY + "; its log: " + log(s.name()));
            TimeUnit.MILLISECONDS.sleep(200); // polling another process
        }
    }

    /** The services this stack started (or that answer on their ports) and its Prometheus, each UP when it answers. */
    public List<Component> components() {
        List<Component> found = new ArrayList<>();
        for (Service s : ALL) {
            int port = settings.get(s.port());
            boolean up = ServerProcess.answers("127.0.0.1", port);
            if (!up && !Files.exists(pid(s.name()))) continue; // not part of this stack
            found.add(new Component(
                    s.name(),
                    "127.0.0.1:" + port,
                    up,
                    "metrics http://127.0.0.1:" + port + "/metrics, log " + log(s.name())));
        }
        Component prometheus = new Monitoring(settings, dir, out, monitoringPort).component();
        if (prometheus != null) found.add(prometheus);
        return found;
    }

    /** Stops the services and Prometheus that {@code up --services} started (SIGTERM; they close cleanly). */
    public void down() {
        new Monitoring(settings, dir, out, monitoringPort).down();
        for (Service s : ALL) Pids.stop(out, s.name(), pid(s.name()));
        Pids.stop(out, "draw-beacon", dir.resolve("draw-beacon.pid"));
    }

    private Path pid(String name) {
        return dir.resolve(name + ".pid");
    }

    private Path log(String name) {
        return dir.resolve(name + ".log");
    }
}
