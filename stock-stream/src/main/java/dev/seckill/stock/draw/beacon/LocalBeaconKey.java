package dev.seckill.stock.draw.beacon;

import dev.seckill.contracts.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Set;
import supranational.blst.SecretKey;

/**
 * A {@link LocalBeacon}'s chain as its key file keeps it: the BLS secret key, the genesis and the period (seconds).
 * The file is JSON ({@code {"secret_key":"<hex>","genesis_time":…,"period":…}}), written once with mode 600 and read
 * on every later start, so a restarted beacon is the same chain.
 */
record LocalBeaconKey(SecretKey key, long genesisSeconds, int periodSeconds) {
    private static final HexFormat HEX = HexFormat.of();
    private static final int SECRET_BYTES = 32;

    /** The chain this key signs. */
    BeaconChain chain() {
        return BeaconChain.local(Bls.publicKey(key), genesisSeconds, periodSeconds);
    }

    /**
     * The key in {@code file}, or a new one written there (genesis now, {@code periodSeconds}, or 1 s when that is 0):
     * an existing file's period must be {@code periodSeconds} unless that is 0.
     */
    static LocalBeaconKey loadOrCreate(Path file, int periodSeconds, Clock clock) throws IOException {
        if (periodSeconds < 0) throw new IllegalArgumentException("a period of at least 1 s, not " + periodSeconds);
        if (!Files.exists(file)) {
            try {
                return create(file, periodSeconds == 0 ? LocalBeacon.DEFAULT_PERIOD_SECONDS : periodSeconds, clock);
            } catch (FileAlreadyExistsException raced) {
                // another start wrote it first: read theirs
            }
        }
        LocalBeaconKey key = read(file);
        if (periodSeconds != 0 && key.periodSeconds() != periodSeconds) {
            throw new IllegalArgumentException("key file " + file + " holds a chain with a " + key.periodSeconds()
                    + " s period, not " + periodSeconds + " s: start it with that period, or remove the file to begin"
                    + " a new chain");
        }
        return key;
    }

    private static LocalBeaconKey create(Path file, int periodSeconds, Clock clock) throws IOException {
        byte[] ikm = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(ikm);
        SecretKey key = Bls.keyFrom(ikm);
        long genesis = Math.floorDiv(clock.millis(), 1000);
        byte[] json = Json.write(new DrandJson.KeyFile(HEX.formatHex(key.to_bendian()), genesis, periodSeconds));
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = posix(dir)
                ? Files.createTempFile(dir, ".beacon-key", ".tmp", ownerOnly())
                : Files.createTempFile(dir, ".beacon-key", ".tmp");
        try {
            Files.write(temp, json);
            Files.move(temp, file); // not over an existing file: FileAlreadyExistsException if one appeared
        } finally {
            Files.deleteIfExists(temp);
        }
        return new LocalBeaconKey(key, genesis, periodSeconds);
    }

    private static LocalBeaconKey read(Path file) throws IOException {
        DrandJson.KeyFile stored;
        byte[] secret;
        try {
            stored = Json.read(Files.readAllBytes(file), DrandJson.KeyFile.class);
            secret = HEX.parseHex(stored.secretKey());
        } catch (UncheckedIOException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("key file " + file + " is not a local beacon's key: " + e.getMessage());
        }
        if (secret.length != SECRET_BYTES || stored.period() < 1 || stored.genesisTime() < 0) {
            throw new IllegalArgumentException("key file " + file + " is not a local beacon's key: a " + SECRET_BYTES
                    + "-byte secret, a genesis and a period of at least 1 s are needed");
        }
        SecretKey key = Bls.keyOf(secret);
        if (!Bls.verify(Bls.publicKey(key), 1, Bls.sign(key, 1))) {
            throw new IllegalArgumentException("key file " + file + " holds no usable secret key (zero, or too large)");
        }
        return new LocalBeaconKey(key, stored.genesisTime(), stored.period());
    }

    private static boolean posix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    }
}
