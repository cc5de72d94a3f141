package dev.seckill.infra.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on loopback in front of a Redis server: the address a failover moves, as a virtual IP or a
 * Sentinel-aware proxy does in production. The services keep the one {@code SECKILL_REDIS_URL} they read at start (this
 * proxy's); {@link #switchTo} points it at another server and drops every open connection, so each client reconnects
 * there. {@link #stall} stops forwarding on open connections without closing them (a network partition): put between a
 * replica and its primary, the replica falls behind for as long as it lasts.
 */
final class RedisProxy implements AutoCloseable {
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int target;
    private volatile boolean stalled;

    RedisProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread accept = new Thread(this::accept, "redis-proxy-" + port());
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "redis://127.0.0.1:" + port();
    }

    int target() {
        return target;
    }

    /** Points new connections at {@code port} and closes every open one (their clients reconnect, to it). */
    void switchTo(int port) {
        target = port;
        stalled = false;
        for (Socket s : open) close(s);
    }

    /** Stops forwarding bytes (open connections stay open, silent), or resumes. */
    void stall(boolean stall) {
        stalled = stall;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                try {
                    upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 2_000);
                } catch (IOException refused) {
                    close(client);
                    continue; // the server is down: the client sees a closed connection, as with no server at all
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (server.isClosed()) return;
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buf = new byte[64 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            while (stalled && !from.isClosed()) Thread.sleep(5); // the partition: bytes wait here
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // a side closed: close the other
                    } finally {
                        close(from);
                        close(to);
                    }
                },
                "redis-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void close(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        for (Socket s : open) close(s);
    }
}
