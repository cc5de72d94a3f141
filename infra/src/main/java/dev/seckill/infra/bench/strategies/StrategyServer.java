package dev.seckill.infra.bench.strategies;

import dev.seckill.infra.harness.buyers.Answer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one {@link Strategy} over HTTP with the gateway's framework (Vert.x, one server per event loop on one port):
 * {@code POST /api/purchases} with the gateway's body ({@code goodsId}, {@code userId}) answered with the outcome in
 * the gateway's field ({@code {"status":"SUCCESS"}}), and {@code GET /health}. The strategy blocks, so it runs on a
 * worker pool of {@link #WORKERS} threads — a servlet container's request threads (Tomcat's default is 200).
 */
final class StrategyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StrategyServer.class);
    static final int WORKERS = 200;

    private final Vertx vertx;
    private final Strategy strategy;
    private final List<HttpServer> servers = new ArrayList<>();

    StrategyServer(Strategy strategy, int port) throws Exception {
        this.strategy = strategy;
        this.vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(WORKERS));
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false);
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            servers.add(vertx.createHttpServer(options)
                    .requestHandler(this::handle)
                    .listen()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS));
        }
    }

    int port() {
        return servers.get(0).actualPort();
    }

    private void handle(HttpServerRequest req) {
        if (req.path().equals("/health")) {
            req.response().end("{\"status\":\"UP\"}");
            return;
        }
        if (!req.path().equals("/api/purchases") || req.method().name().equals("GET")) {
            req.response().setStatusCode(404).end();
            return;
        }
        req.body().onSuccess(body -> {
            long goods;
            long user;
            try {
                JsonObject json = body.toJsonObject();
                goods = json.getLong("goodsId");
                user = json.getLong("userId");
            } catch (RuntimeException bad) {
                req.response().setStatusCode(400).end("{\"error\":\"goodsId and userId are required numbers\"}");
                return;
            }
            vertx.executeBlocking(() -> strategy.buy(goods, user), false).onComplete(done -> {
                if (done.succeeded()) {
                    Answer a = done.result();
                    req.response().setStatusCode(a.status).end("{\"status\":\"" + a.name() + "\"}");
                } else {
                    LOG.warn("purchase failed: {}", done.cause().toString());
                    req.response().setStatusCode(503).end("{\"status\":\"UNKNOWN\"}");
                }
            });
        });
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        strategy.close();
    }
}
