package dev.seckill.order;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * order-writer's HTTP side on its metrics port: {@code GET /metrics} (Prometheus text) and {@code GET /health}
 * ({@code 200 {"status":"UP"}}, or {@code 503 {"status":"DOWN",…}} once the consumer loop is gone), so a supervisor
 * or load balancer sees a dead writer even in the moment before the process exits.
 */
public final class StatusServer implements AutoCloseable {
    private final HttpServer server;

    private StatusServer(HttpServer server) {
        this.server = server;
    }

    /** On loopback; port 0 picks a free one. */
    public static StatusServer start(PrometheusMeterRegistry registry, Supplier<OrderWriterApp.Health> health, int port)
            throws IOException {
        return start(registry, health, "127.0.0.1", port);
    }

    /** On {@code host} ({@code SECKILL_ADMIN_HOST}); {@code /live} answers 200 whatever the database does. */
    public static StatusServer start(
            PrometheusMeterRegistry registry, Supplier<OrderWriterApp.Health> health, String host, int port)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        server.createContext("/live", exchange -> reply(exchange, 200, "application/json", "{\"status\":\"ALIVE\"}"));
        server.createContext(
                "/metrics",
                exchange -> reply(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/health", exchange -> {
            OrderWriterApp.Health h = health.get();
            String body = "{\"status\":\"" + (h.up() ? "UP" : "DOWN") + "\",\"detail\":\""
                    + h.detail().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
            reply(exchange, h.up() ? 200 : 503, "application/json", body);
        });
        server.start();
        return new StatusServer(server);
    }

    private static void reply(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
