package dev.seckill.infra.bench.gateway;

import dev.seckill.stack.ServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.TimeUnit;

/**
 * The second reference of {@code bench gateway}: the same load generator against a Vert.x server on the gateway's
 * event loops that reads each purchase's body and answers 202 with a fixed body at once — no auth, no validation, no
 * Kafka. What HTTP alone costs on these cores with this generator: the gateway's figure over it is the share of the
 * HTTP floor the gateway's own work leaves.
 */
final class HttpFloor implements AutoCloseable {
    private static final String BODY =
            "{\"requestId\":\"00000000-0000-0000-0000-000000000000\",\"status\":\"PENDING\"}";

    private final Vertx vertx = Vertx.vertx();
    private final int port;

    HttpFloor(int eventLoops) throws Exception {
        // one port picked first: Vert.x shares a port among the servers of one instance only when it is named
        this.port = ServerProcess.freePort();
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false);
        for (int i = 0; i < eventLoops; i++) listen(options);
    }

    private HttpServer listen(HttpServerOptions options) throws Exception {
        return vertx.createHttpServer(options)
                .requestHandler(req -> req.body()
                        .onSuccess(b -> req.response()
                                .setStatusCode(202)
                                .putHeader("content-type", "application/json")
                                .end(BODY)))
                .listen()
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
    }

    int port() {
        return port;
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
