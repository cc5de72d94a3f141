package dev.seckill.system.containers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The secrets deploy/compose.yaml mounts, made for one test as {@code ./seckill secrets} makes them: 48 random bytes
 * each, base64, one file each in a folder only its owner enters (the files readable, for the containers' uid). Deleted
 * by {@link #close()}.
 */
final class TestSecrets implements AutoCloseable {
    static final List<String> NAMES = List.of(
            "gateway-auth-secret", "gateway-payment-secret", "db-password", "db-root-password", "stream-hop-secret");
    private final Path dir;
    private final Map<String, String> values = new LinkedHashMap<>();

    TestSecrets() throws IOException {
        dir = Files.createTempDirectory(
                "seckill-secrets-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        SecureRandom random = new SecureRandom();
        for (String name : NAMES) {
            byte[] bytes = new byte[48];
            random.nextBytes(bytes);
            String value = Base64.getEncoder().encodeToString(bytes);
            Path file = dir.resolve(name);
            Files.writeString(file, value);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            values.put(name, value);
        }
    }

    Path dir() {
        return dir;
    }

    String get(String name) {
        return values.get(name);
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
