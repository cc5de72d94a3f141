package dev.seckill.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A MariaDB server on a loopback port that this project started, with its own data folder; root has no password. */
public final class MariaDbServer implements AutoCloseable {
    private final int port;
    private final Path dir;
    private final List<String> extraArgs;
    private Process process;

    public MariaDbServer(int port, Path dir) {
        this(port, dir, List.of());
    }

    /** With options of mariadbd's own added to the command line (e.g. {@code --ssl-cert=...}). */
    public MariaDbServer(int port, Path dir, List<String> extraArgs) {
        this.port = port;
        this.dir = dir.toAbsolutePath();
        this.extraArgs = List.copyOf(extraArgs);
    }

    public static MariaDbServer onFreePort() {
        try {
            return new MariaDbServer(ServerProcess.freePort(), ServerProcess.tempDir("seckill-mariadb-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A server that also accepts TLS with a certificate signed by {@code tls}'s CA (for {@code 127.0.0.1}): a user
     * created {@code REQUIRE SSL} can then connect only over TLS, as a managed database's users do.
     */
    public static MariaDbServer withTls(LocalTls tls) {
        LocalTls.Pem pem = tls.pem();
        try {
            return new MariaDbServer(
                    ServerProcess.freePort(),
                    ServerProcess.tempDir("seckill-mariadb-tls-"),
                    List.of("--ssl-cert=" + pem.certificate(), "--ssl-key=" + pem.key(), "--ssl-ca=" + pem.ca()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database;
    }

    public MariaDbServer start() {
        Path daemon = ServerProcess.requireBinary("mariadbd", "mariadb-server");
        Path data = dir.resolve("data");
        try {
            if (!Files.exists(data.resolve("mysql"))) {
                Files.createDirectories(data);
                Path install = ServerProcess.requireBinary("mariadb-install-db", "mariadb-server");
                ServerProcess.run(
                        List.of(
                                install.toString(),
                                "--no-defaults",
                                "--datadir=" + data,
                                "--user=root",
                                "--auth-root-authentication-method=normal",
                                "--skip-test-db"),
                        Duration.ofMinutes(2));
            }
            Path log = dir.resolve("error.log");
            List<String> cmd = new ArrayList<>(List.of(
                    daemon.toString(),
                    "--no-defaults",
                    "--datadir=" + data,
                    "--socket=" + dir.resolve("mysqld.sock"),
                    "--port=" + port,
                    "--bind-address=127.0.0.1",
                    "--user=root",
                    "--pid-file=" + dir.resolve("mariadbd.pid"),
                    "--log-error=" + log,
                    "--skip-name-resolve",
                    "--innodb-buffer-pool-size=128M",
                    "--innodb-flush-log-at-trx-commit=2",
                    "--max-connections=500"));
            cmd.addAll(extraArgs);
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("stdout.log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            ServerProcess.awaitReady(
                    "mariadbd on 127.0.0.1:" + port,
                    () -> ServerProcess.answers("127.0.0.1", port),
                    process,
                    Duration.ofSeconds(60),
                    log);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** SIGTERM, waiting for a clean shutdown. */
    public void stop() {
        if (process == null) return;
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
