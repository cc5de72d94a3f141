package dev.seckill.kit.observability;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.config.Unreachable;
import dev.seckill.kit.trace.Tracing;
import dev.seckill.kit.warmup.Readiness;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;

/**
 * What every service's {@code main} does: settings from the environment, a Prometheus registry served on
 * {@code /metrics}, start, close on SIGTERM, and one readable line (exit 2) when a server it needs is missing.
 */
public final class ServiceMain {
    /** Starts a service with its settings and registry; what it returns is closed on shutdown. */
    public interface Starter {
        AutoCloseable start(Settings settings, PrometheusMeterRegistry registry) throws Exception;
    }

    private ServiceMain() {}

    /**
     * @param name        the service's name, for its messages
     * @param metricsPort the setting of its metrics port (null: the service serves /metrics itself)
     */
    public static void run(String name, Setting<Integer> metricsPort, Starter starter) throws Exception {
        run(name, metricsPort, starter, null);
    }

    /**
     * As above, with the metrics port (and its {@code /health}, from {@code readiness}) open before the service starts,
     * so that a service warming itself answers {@code starting} / {@code warming} until it is ready.
     */
    public static void run(String name, Setting<Integer> metricsPort, Starter starter, Readiness readiness)
            throws Exception {
        Settings settings = Settings.fromEnvironment();
        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        String adminHost = settings.get(SharedSettings.ADMIN_HOST);
        try {
            MetricsServer early = readiness == null || metricsPort == null
                    ? null
                    : MetricsServer.start(registry, adminHost, settings.get(metricsPort), readiness);
            AutoCloseable tracing = Tracing.start(settings, name);
            AutoCloseable service;
            try (AutoCloseable waiting = Unreachable.waitAtStart(
                    Duration.ofMillis(settings.get(SharedSettings.START_WAIT_MS)),
                    line -> System.err.println(name + ": " + line))) {
                service = starter.start(settings, registry);
            }
            MetricsServer server = early != null
                    ? early
                    : metricsPort == null
                            ? null
                            : MetricsServer.start(registry, adminHost, settings.get(metricsPort), null);
            Console.println(name + " RUNNING"
                    + (server == null ? "" : "; metrics on http://" + adminHost + ":" + server.port() + "/metrics"));
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    service.close();
                                } catch (Exception e) {
                                    System.err.println(name + ": " + OneLine.message(e));
                                }
                                if (server != null) server.close();
                                try {
                                    tracing.close(); // the spans still buffered are exported
                                } catch (Exception e) {
                                    System.err.println(name + ": " + OneLine.message(e));
                                }
                            },
                            name + "-shutdown"));
            Thread.currentThread().join();
        } catch (Unreachable | IllegalStateException | IllegalArgumentException e) {
            System.err.println(name + ": " + OneLine.message(e));
            System.exit(2);
        } catch (Exception e) {
            // anything else that stops the start (e.g. the reconciler before order-writer made the schema): one line
            // and an exit, so that the orchestrator starts it again; left alone, the JVM's other threads kept a dead
            // service up
            System.err.println(name + ": could not start: " + OneLine.of(e.toString()));
            System.exit(1);
        }
    }
}
