package dev.seckill.infra.harness;

import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The processes that serve one strategy, each a JVM of its own as production runs it: a baseline's
 * main class (bench/strategies), or the pipeline's gateway, stock-stream and order-writer. The fault run SIGKILLs all of them at
 * once and starts them again.
 */
public final class ServedStrategy implements AutoCloseable {
    /**
     * One process: what it runs and the port its {@code /health} answers on; a pipeline service names its
     * {@code ./seckill run} service (started as a user starts it), a baseline its main class.
     */
    record Part(
            String name,
            String service,
            String mainClass,
            List<String> args,
            List<String> jvm,
            int healthPort,
            Map<String, String> env) {
        static Part baseline(String name, String mainClass, List<String> args, int healthPort) {
            return new Part(name, null, mainClass, args, List.of("-XX:+UseG1GC"), healthPort, Map.of());
        }

        static Part service(String name, String service, int healthPort, Map<String, String> env) {
            return new Part(name, service, null, List.of(), List.of(), healthPort, env);
        }
    }

    private static final Duration READY = Duration.ofMinutes(3);

    private final List<Part> parts;
    private final Map<String, String> env;
    private final Path logDir;
    private final int port;
    private final int metricsPort;
    private final List<ServiceProcess> running = new ArrayList<>();
    private volatile String readiness = "";

    private ServedStrategy(List<Part> parts, Map<String, String> env, Path logDir, int port, int metricsPort) {
        this.parts = parts;
        this.env = env;
        this.logDir = logDir;
        this.port = port;
        this.metricsPort = metricsPort;
    }

    /** A baseline: one process. */
    public static ServedStrategy baseline(String strategy, String mainClass, Settings s, Path logDir)
            throws IOException {
        int port = ServerProcess.freePort();
        Part p = Part.baseline(strategy, mainClass, List.of(strategy, Integer.toString(port)), port);
        return new ServedStrategy(new ArrayList<>(List.of(p)), sharedEnv(s), logDir, port, 0);
    }

    /**
     * The pipeline: gateway (auth off as for the baselines, a fixed id secret so a restarted gateway reads its ids),
     * stream, writer, with {@code more} {@code SECKILL_*} variables for its processes (a setting under test); with
     * {@code reconciler} the fourth service too (last, once the order-writer has migrated the schema it reads),
     * repairing every second.
     */
    public static ServedStrategy pipeline(Settings s, Path logDir, Map<String, String> more, boolean reconciler)
            throws IOException {
        int gateway = ServerProcess.freePort();
        int gatewayAdmin = ServerProcess.freePort();
        int stream = ServerProcess.freePort();
        int writer = ServerProcess.freePort();
        Map<String, String> env = sharedEnv(s);
        env.putAll(Map.of(
                "SECKILL_GATEWAY_PORT",
                Integer.toString(gateway),
                "SECKILL_GATEWAY_METRICS_PORT",
                Integer.toString(gatewayAdmin),
                "SECKILL_GATEWAY_AUTH_ENABLED",
                "false",
                // the harness's buyers share one address and no token: not one client for the read limit
                "SECKILL_GATEWAY_LIMIT_STATUS_PER_SECOND",
                "10000000",
                "SECKILL_GATEWAY_LIMIT_STATUS_BURST",
                "10000000",
                "SECKILL_GATEWAY_ID_SECRET",
                "bench-strategies-" + System.nanoTime() + "-id-secret-of-this-run",
                "SECKILL_STREAM_METRICS_PORT",
                Integer.toString(stream),
                "SECKILL_WRITER_METRICS_PORT",
                Integer.toString(writer)));
        env.putAll(DrawBeacons.environment(DrawBeacons.inProcess(s).url())); // drawn sales can be opened on it
        // no instance ids, no warm-up switch: each service's defaults, as ./seckill run starts it (its instance id is
        // <host>-<metrics port>, stable across a restart here; a restart mid-sale skips the warm-up by itself)
        env.putAll(more);
        List<Part> parts = new ArrayList<>(List.of(
                Part.service(STREAM, STREAM, stream, Map.of()),
                Part.service("order-writer", "order-writer", writer, Map.of()),
                Part.service("gateway", "gateway", gateway, Map.of())));
        if (reconciler) {
            int port = ServerProcess.freePort();
            parts.add(Part.service(
                    RECONCILER,
                    RECONCILER,
                    port,
                    Map.of(
                            "SECKILL_RECONCILE_METRICS_PORT",
                            Integer.toString(port),
                            "SECKILL_RECONCILE_INTERVAL_MS",
                            "1000")));
        }
        return new ServedStrategy(parts, env, logDir, gateway, gatewayAdmin);
    }

    private static final String STREAM = "stock-stream";
    private static final String RECONCILER = "reconciler";

    /**
     * Starts one more stock-stream instance (another static member of the same group: a rebalance), without waiting
     * for it; returns its name, {@code stock-stream-N}, for {@link #awaitHealthy} and {@link #killAndRestart(String, long)}.
     */
    public String startStreamInstance() throws IOException {
        int port = ServerProcess.freePort();
        String name = STREAM + "-" + parts.size();
        Part p = Part.service(name, STREAM, port, Map.of("SECKILL_STREAM_METRICS_PORT", Integer.toString(port)));
        parts.add(p);
        running.add(launch(p));
        return name;
    }

    /** Waits for {@code part}'s {@code /health} 200; returns the milliseconds since its JVM started. */
    public long awaitHealthy(String part) throws IOException, InterruptedException {
        int i = indexOf(part);
        return running.get(i).awaitHealthy(parts.get(i).healthPort(), READY);
    }

    /** The part whose {@code /health} answers on {@code port} (its default instance id ends with it), or null. */
    public String partOnPort(int port) {
        for (Part p : parts) if (p.healthPort() == port) return p.name();
        return null;
    }

    private ServiceProcess launch(Part p) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(env);
        all.putAll(p.env());
        Path log = logDir.resolve(p.name() + ".log");
        return p.service() != null
                ? ServiceProcess.seckillRun(p.name(), p.service(), all, log)
                : ServiceProcess.start(p.name(), p.mainClass(), p.jvm(), p.args(), all, log);
    }

    private int indexOf(String part) {
        for (int i = 0; i < parts.size(); i++) if (parts.get(i).name().equals(part)) return i;
        throw new IllegalArgumentException("no part " + part);
    }

    private static Map<String, String> sharedEnv(Settings s) {
        Map<String, String> env = KafkaSettings.environment(s); // bootstrap and security (a LinkedHashMap)
        env.putAll(Map.of(
                "SECKILL_REDIS_URL", s.redisUrl(),
                "SECKILL_REDIS_CLUSTER", s.redisCluster(),
                "SECKILL_TOPIC_PREFIX", s.topicPrefix(),
                "SECKILL_REDIS_PREFIX", s.redisPrefix(),
                "SECKILL_DB_URL", s.dbUrl(),
                "SECKILL_DB_USER", s.dbUser(),
                "SECKILL_DB_PASSWORD", s.dbPassword(),
                "SECKILL_STREAM_HOP_SECRET", dev.seckill.stock.bucket.HopSeal.freshKey()));
        return env;
    }

    /** Each part's time from its JVM's start to {@code /health} 200, at the last start. */
    public String readiness() {
        return readiness;
    }

    public int port() {
        return port;
    }

    /** The pipeline gateway's admin port ({@code /metrics}); 0 for a baseline. */
    public int metricsPort() {
        return metricsPort;
    }

    /** Starts every part and waits for each one's {@code /health} 200; returns the milliseconds that took. */
    public long start() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        StringBuilder ready = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            // the reconciler reads the schema the order-writer migrates: launched once the others are healthy
            if (parts.get(i).name().equals(RECONCILER))
                for (int j = 0; j < i; j++)
                    running.get(j).awaitHealthy(parts.get(j).healthPort(), READY);
            running.add(launch(parts.get(i)));
        }
        for (int i = 0; i < parts.size(); i++) {
            long ms = running.get(i).awaitHealthy(parts.get(i).healthPort(), READY);
            ready.append(ready.length() == 0 ? "" : ", ")
                    .append(String.format("%s %,d ms", parts.get(i).name(), ms));
        }
        readiness = ready.toString();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /**
     * SIGKILLs one part ({@code stock-stream}, {@code order-writer}, {@code gateway}) and starts it again {@code downMs}
     * later (0: at once); returns the milliseconds from the SIGKILL until it was healthy.
     */
    public long killAndRestart(String part, long downMs) throws IOException, InterruptedException {
        int i = indexOf(part);
        long t0 = System.nanoTime();
        running.get(i).sigkill();
        if (downMs > 0) Thread.sleep(downMs); // the time it stays down, the fault's shape: not a wait for anything
        Part p = parts.get(i);
        ServiceProcess restarted = launch(p);
        running.set(i, restarted);
        restarted.awaitHealthy(p.healthPort(), READY);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Sends one part a signal by name ({@code STOP}, {@code CONT}): {@link ServiceProcess#signal}. */
    public void signal(String part, String name) throws IOException, InterruptedException {
        running.get(indexOf(part)).signal(name);
    }

    /** SIGKILLs every part at once, then starts them again; returns the milliseconds until all were healthy again. */
    public long killAndRestart() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        for (ServiceProcess p : running) p.sigkill();
        running.clear();
        start();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Override
    public void close() throws InterruptedException {
        for (ServiceProcess p : running) p.close();
        running.clear();
    }
}
