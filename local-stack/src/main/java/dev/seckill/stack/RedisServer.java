package dev.seckill.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A redis-server on loopback that this project started (own port, own folder, nothing persisted). */
public final class RedisServer implements AutoCloseable {
    private final int port;
    private final Path dir;
    private final List<String> extraArgs;

    public RedisServer(int port, Path dir, List<String> extraArgs) {
        this.port = port;
        this.dir = dir.toAbsolutePath();
        this.extraArgs = extraArgs;
    }

    public static RedisServer onFreePort() {
        try {
            return new RedisServer(ServerProcess.freePort(), ServerProcess.tempDir("seckill-redis-"), List.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public RedisServer start() {
        Path bin = ServerProcess.requireBinary("redis-server", "redis-server");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cmd = new ArrayList<>(List.of(
                bin.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                dir.toString(),
                "--pidfile",
                dir.resolve("redis-" + port + ".pid").toString(),
                "--logfile",
                dir.resolve("redis-" + port + ".log").toString()));
        cmd.addAll(extraArgs);
        ServerProcess.run(cmd, Duration.ofSeconds(20));
        ServerProcess.awaitReady(
                "redis-server on 127.0.0.1:" + port,
                this::pongs,
                null,
                Duration.ofSeconds(20),
                dir.resolve("redis-" + port + ".log"));
        return this;
    }

    /**
     * Ready means PING answers PONG: a server replaying its append-only file accepts connections but answers
     * {@code -LOADING} until the data set is back.
     */
    private boolean pongs() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(1000);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] answer = new byte[5];
            int n = s.getInputStream().readNBytes(answer, 0, answer.length);
            return n == 5 && new String(answer, StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops without saving; safe to call twice. */
    public void stop() {
        if (!ServerProcess.answers("127.0.0.1", port)) return;
        Path cli = ServerProcess.which("redis-cli");
        try {
            if (cli != null) {
                ServerProcess.run(
                        List.of(cli.toString(), "-p", Integer.toString(port), "shutdown", "nosave"),
                        Duration.ofSeconds(10));
            }
        } catch (IllegalStateException e) {
            // redis-cli reports the closed connection of a successful shutdown as an error on some versions
        }
        ServerProcess.awaitReady(
                "redis-server on " + port + " to stop",
                () -> !ServerProcess.answers("127.0.0.1", port),
                null,
                Duration.ofSeconds(10),
                null);
    }

    @Override
    public void close() {
        stop();
    }
}
