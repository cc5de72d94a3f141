package dev.seckill.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server secured as a managed one is: TLS only (no plain port), its certificate signed by a CA made at start
 * ({@link LocalTls}), the {@code default} user switched off (an anonymous client is refused everything), an
 * {@link #ADMIN} user with every right and the users the caller declares as Redis ACL rules. In a fresh temporary
 * folder on a free loopback port; nothing persisted; {@link #close()} stops it.
 */
public final class SecureRedis implements AutoCloseable {
    public static final String ADMIN = "admin";

    private final int port;
    private final LocalTls tls;
    private final LocalTls.Pem pem;
    private final String adminPassword;
    private final Process process;

    private SecureRedis(int port, LocalTls tls, LocalTls.Pem pem, String adminPassword, Process process) {
        this.port = port;
        this.tls = tls;
        this.pem = pem;
        this.adminPassword = adminPassword;
        this.process = process;
    }

    /**
     * Starts the server with these users: a user name and its ACL rules without the password (e.g. {@code on
     * ~seckill:* +@read}), each given {@code passwords.get(name)}.
     */
    public static SecureRedis start(Map<String, String> rules, Map<String, String> passwords) {
        Path bin = ServerProcess.requireBinary("redis-server", "redis-server");
        try {
            Path dir = ServerProcess.tempDir("seckill-secure-redis-");
            LocalTls tls = LocalTls.create(dir.resolve("tls"));
            LocalTls.Pem pem = tls.pem();
            int port = ServerProcess.freePort();
            String adminPassword = UUID.randomUUID().toString();
            List<String> conf = new ArrayList<>(List.of(
                    "port 0",
                    "tls-port " + port,
                    "bind 127.0.0.1",
                    "tls-cert-file " + pem.certificate(),
                    "tls-key-file " + pem.key(),
                    "tls-ca-cert-file " + pem.ca(),
                    "tls-auth-clients optional",
                    "save \"\"",
                    "appendonly no",
                    "dir " + dir,
                    "user default off resetpass nocommands",
                    "user " + ADMIN + " on >" + adminPassword + " ~* &* +@all"));
            rules.forEach((user, rule) -> {
                String password = passwords.get(user);
                if (password == null) throw new IllegalArgumentException("no password for the Redis user " + user);
                conf.add("user " + user + " reset " + rule + " >" + password);
            });
            Path config = dir.resolve("redis.conf");
            Files.write(config, conf);
            Path log = dir.resolve("redis.log");
            Process p = new ProcessBuilder(bin.toString(), config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            SecureRedis redis = new SecureRedis(port, tls, pem, adminPassword, p);
            ServerProcess.awaitReady(
                    "redis-server (TLS) on 127.0.0.1:" + port,
                    () -> logSays(log, "Ready to accept connections"),
                    p,
                    Duration.ofSeconds(20),
                    log);
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean logSays(Path log, String line) {
        try {
            return Files.exists(log) && Files.readString(log).contains(line);
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code rediss://127.0.0.1:<port>}: the URL without credentials (they are settings of their own). */
    public String url() {
        return "rediss://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The CA's certificate (PEM), for redis-cli's {@code --cacert}. */
    public Path caCertificate() {
        return pem.ca();
    }

    /** The admin user's password (for redis-cli, in {@code REDISCLI_AUTH}). */
    public String adminPassword() {
        return adminPassword;
    }

    /** The clients' settings for {@code user}: the URL, the user, its password and the CA they verify Redis against. */
    public Map<String, String> clientSettings(String user, String password) {
        return Map.of(
                "redis.url", url(),
                "redis.user", user,
                "redis.password", password,
                "redis.tls.truststore", tls.truststore().toString(),
                "redis.tls.truststore.password", tls.password());
    }

    /** The settings of the user with every right (an operator's audits and clean-up). */
    public Map<String, String> adminSettings() {
        return clientSettings(ADMIN, adminPassword);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
