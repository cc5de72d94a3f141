package dev.seckill.stock.draw.beacon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny HTTP server on 127.0.0.1 standing for a drand relay that misbehaves: every request is answered by the
 * test's {@link Handler}, on a thread of its own (a handler that waits holds up no other request); it counts requests.
 */
final class FakeRelay implements AutoCloseable {
    /** What the relay answers to a request for {@code path}. */
    interface Handler {
        Reply answer(String path) throws Exception;
    }

    record Reply(int status, String body) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger requests = new AtomicInteger();

    FakeRelay(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> serve(exchange, handler));
        server.setExecutor(executor);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    int requests() {
        return requests.get();
    }

    private void serve(HttpExchange exchange, Handler handler) throws IOException {
        requests.incrementAndGet();
        try {
            Reply reply = handler.answer(exchange.getRequestURI().getPath());
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), body.length);
            exchange.getResponseBody().write(body);
        } catch (Exception e) {
            exchange.sendResponseHeaders(500, -1);
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** A URL on 127.0.0.1 where nothing listens (a port just freed): a relay that is down. */
    static URI downUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }

    /** The round number at the end of a drand {@code /<hash>/public/<round>} path. */
    static long roundOf(String path) {
        return Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
    }
}
