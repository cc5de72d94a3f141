package dev.seckill.gateway;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's HTTP servers: one per event loop on one port, so Vert.x spreads connections across the loops (the
 * admin port: one, {@link AdminPort}); and their graceful shutdown.
 */
final class HttpListeners {
    private static final Logger LOG = LoggerFactory.getLogger(HttpListeners.class);

    private HttpListeners() {}

    /**
     * {@code loops} servers on {@code host:port} (port 0: a free one, shared by all), each handing requests to
     * {@code router}; {@code what} names them in the log and in the error when the port is taken.
     */
    static List<HttpServer> listen(Vertx vertx, Router router, String what, String host, int port, int loops) {
        HttpServerOptions options = new HttpServerOptions()
                .setHost(host)
                .setPort(port == 0 ? freePort(host) : port)
                .setTcpNoDelay(true)
                .setIdleTimeout(60)
                // HTTP/1.1 only: no h2c upgrade sniffing and no WebSocket extension handler on every connection's
                // pipeline
                .setHttp2ClearTextEnabled(false)
                .setPerFrameWebSocketCompressionSupported(false)
                .setPerMessageWebSocketCompressionSupported(false);
        List<HttpServer> listening = new ArrayList<>();
        try {
            for (int i = 0; i < loops; i++) {
                listening.add(vertx.createHttpServer(options)
                        .requestHandler(router)
                        .listen()
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));
            }
        } catch (Exception e) {
            throw new IllegalStateException(
                    what + " cannot listen on " + options.getHost() + ":" + options.getPort() + ": " + e.getMessage(),
                    e);
        }
        LOG.info(
                "{} listening on http://{}:{} ({} event loops)",
                what,
                options.getHost(),
                listening.get(0).actualPort(),
                loops);
        return listening;
    }

    /** Graceful: each server stops accepting and lets its open requests finish (10 s at most), in order. */
    static void shutdown(List<HttpServer> servers) {
        for (HttpServer server : servers) {
            try {
                server.shutdown(10, TimeUnit.SECONDS)
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(15, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("HTTP server shutdown: {}", e.getMessage());
            }
        }
    }

    /** Port 0 means "any free port"; every event loop's server must then share the one picked here. */
    private static int freePort(String host) {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + host, e);
        }
    }
}
