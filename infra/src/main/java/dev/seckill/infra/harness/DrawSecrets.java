package dev.seckill.infra.harness;

import dev.seckill.kit.config.Settings;
import dev.seckill.stock.StockStreamSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The stream's draw secret (stream.draw.secret) for the streams the tools start — the stack's process, a drill's or a
 * benchmark's pipeline: the configured one, else one made once for this machine's stack and kept in
 * {@code <home>/services/stream-draw.secret} (owner-only), so a replay drill draws with the secret the stack's stream
 * drew with, and the same winners come out.
 */
public final class DrawSecrets {
    private DrawSecrets() {}

    public static String of(Settings s) {
        String configured = s.get(StockStreamSettings.DRAW_SECRET);
        if (!configured.isEmpty()) return configured;
        Path file = Path.of(s.get(ToolSettings.HOME))
                .toAbsolutePath()
                .resolve("services")
                .resolve("stream-draw.secret");
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                byte[] key = new byte[32];
                new SecureRandom().nextBytes(key);
                Files.writeString(file, HexFormat.of().formatHex(key));
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot keep the stream's draw secret in " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code s} with the draw secret set. */
    public static Settings with(Settings s) {
        return s.and(Map.of(StockStreamSettings.DRAW_SECRET.name(), of(s)));
    }

    /** The environment variable a stream process reads it from, and its value. */
    public static Map<String, String> environment(Settings s) {
        return Map.of(StockStreamSettings.DRAW_SECRET.env(), of(s));
    }
}
