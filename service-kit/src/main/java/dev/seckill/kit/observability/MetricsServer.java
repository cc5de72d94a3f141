package dev.seckill.kit.observability;

import com.sun.net.httpserver.HttpServer;
import dev.seckill.kit.warmup.Readiness;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Serves a Prometheus registry as text on {@code GET /metrics} (port 0 picks a free one), and {@code /health} when given a readiness. */
public final class MetricsServer implements AutoCloseable {
    private static final String LOOPBACK = "127.0.0.1";
    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * A service's registry: what the service records, and the JVM's and the process's own series beside it (memory
     * pools, GC pauses and live data, threads, classes, CPU, uptime, open files: {@code jvm_*}, {@code process_*},
     * {@code system_*}), so every service's {@code /metrics} shows a heap filling or a GC storm next to its latency.
     * Closing the registry unhooks the GC listener it installed (the only binder that holds one).
     */
    public static PrometheusMeterRegistry newRegistry() {
        JvmGcMetrics gc = new JvmGcMetrics();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) {
            @Override
            public void close() {
                gc.close();
                super.close();
            }
        };
        List<MeterBinder> binders = List.of(
                new JvmMemoryMetrics(),
                gc,
                new JvmThreadMetrics(),
                new ClassLoaderMetrics(),
                new ProcessorMetrics(),
                new UptimeMetrics(),
                new FileDescriptorMetrics());
        for (MeterBinder binder : binders) binder.bindTo(registry);
        return registry;
    }

    /**
     * A registry of what a service records only, for the throwaway parts of a warm-up: no JVM series (the service's
     * own registry has them), no GC listener left behind.
     */
    public static PrometheusMeterRegistry scratchRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /** On loopback (tests, tools). */
    public static MetricsServer start(PrometheusMeterRegistry registry, int port) throws IOException {
        return start(registry, LOOPBACK, port, null);
    }

    /** On loopback, with a readiness (below). */
    public static MetricsServer start(PrometheusMeterRegistry registry, int port, Readiness readiness)
            throws IOException {
        return start(registry, LOOPBACK, port, readiness);
    }

    /**
     * On {@code host} ({@code SECKILL_ADMIN_HOST}; 0.0.0.0 in a container): {@code GET /metrics}, {@code GET /live}
     * (200 while the process answers at all: liveness never depends on Kafka, Redis or the database), and with a
     * readiness {@code GET /health}: 200 {@code {"status":"UP"}} when ready, else 503 with the state ({@code starting},
     * {@code warming}).
     */
    public static MetricsServer start(PrometheusMeterRegistry registry, String host, int port, Readiness readiness)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        server.createContext("/live", exchange -> {
            byte[] body = "{\"status\":\"ALIVE\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        if (readiness != null) {
            server.createContext("/health", exchange -> {
                Readiness.State state = readiness.state();
                byte[] body = ("{\"status\":\"" + state.label + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(state == Readiness.State.UP ? 200 : 503, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
        }
        server.start();
        return new MetricsServer(server);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The address it listens on. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
