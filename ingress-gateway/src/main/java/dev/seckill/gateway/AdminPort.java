package dev.seckill.gateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

/**
 * The gateway's admin port ({@code SECKILL_GATEWAY_METRICS_PORT} on {@code SECKILL_ADMIN_HOST}), as the other services
 * have theirs: {@code GET /metrics} (Prometheus text; the public port answers it 404, so the Internet cannot read it),
 * {@code GET /openapi.yaml} (the HTTP API's OpenAPI 3.1 document, from the jar), and the same {@code /health} and
 * {@code /live} as the public port ({@link HealthRoute}: one answer on both). One
 * server on the gateway's Vert.x, not one per event loop; a scrape is rendered on a worker thread, never on an event
 * loop that serves purchases.
 */
final class AdminPort {
    private AdminPort() {}

    /** Listens on {@code host:port} (0: a free one); {@code /metrics} only when {@code metrics} is Prometheus'. */
    static HttpServer listen(Vertx vertx, HealthRoute health, MeterRegistry metrics, String host, int port) {
        Router router = Router.router(vertx);
        health.mountOn(router);
        byte[] openApi = openApiDocument();
        router.get(OPENAPI_PATH)
                .handler(ctx -> ctx.response()
                        .putHeader("Content-Type", "application/yaml")
                        .end(io.vertx.core.buffer.Buffer.buffer(openApi)));
        if (metrics instanceof PrometheusMeterRegistry prom) {
            router.get("/metrics")
                    .handler(ctx -> vertx.executeBlocking(prom::scrape, false).onComplete(text -> {
                        if (text.failed()) ctx.fail(text.cause());
                        else
                            ctx.response()
                                    .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                                    .end(text.result());
                    }));
        }
        return HttpListeners.listen(
                        vertx, router, "gateway admin (/metrics, /health, /live, /openapi.yaml)", host, port, 1)
                .get(0);
    }

    static final String OPENAPI_PATH = "/openapi.yaml";
    /** Where the document is in the jar (ingress-gateway/src/main/resources). */
    static final String OPENAPI_RESOURCE = "/dev/seckill/gateway/openapi.yaml";

    static byte[] openApiDocument() {
        try (java.io.InputStream in = AdminPort.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) throw new IllegalStateException(OPENAPI_RESOURCE + " is missing from the jar");
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
