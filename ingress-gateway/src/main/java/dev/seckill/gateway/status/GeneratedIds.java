package dev.seckill.gateway.status;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.OptionalLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The requestIds the gateway makes when a client sends none: {@code g-<random><issued ms><mac>}, 45 characters of
 * {@code [a-z0-9-]}. Unguessable (64 random bits from SecureRandom), and signed with a secret every instance shares, so
 * any instance can tell an id a gateway issued — and when — from one it never did, without a store write on the
 * request path: a GET of such an id whose outcome the status store does not hold yet is PENDING (for as long as the
 * store keeps purchases), any other unknown id 404. Measured: writing a PENDING entry for every such purchase before
 * its 202 cost a quarter of the gateway's closed-loop throughput (docs/performance.md). Known limit: an id handed out
 * in a 503 whose command never reached Kafka stays PENDING (the 503 says UNKNOWN and asks for a retry with it).
 */
public final class GeneratedIds {
    private static final String PREFIX = "g-";
    private static final HexFormat HEX = HexFormat.of();
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);
    private final ThreadLocal<Mac> mac;

    public GeneratedIds(byte[] secret) {
        byte[] key = secret.clone();
        this.mac = ThreadLocal.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(new SecretKeySpec(key, "HmacSHA256"));
                return m;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A key for the ids' signatures derived from another secret (the buyers' JWT secret), never that secret itself. */
    public static byte[] derivedKey(String secret) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return m.doFinal("seckill gateway request ids".getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String next(long issuedAtMs) {
        byte[] random = new byte[8];
        RANDOM.get().nextBytes(random);
        String body = HEX.formatHex(random) + String.format("%011x", issuedAtMs);
        return PREFIX + body + signature(body);
    }

    /** When a gateway issued this id (epoch ms); empty when no gateway with this secret did. */
    public OptionalLong issuedAt(String requestId) {
        if (requestId.length() != 45 || !requestId.startsWith(PREFIX)) return OptionalLong.empty();
        String body = requestId.substring(2, 29);
        byte[] given = requestId.substring(29).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(given, signature(body).getBytes(StandardCharsets.US_ASCII)))
            return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseLong(body.substring(16), 16));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether a gateway with this secret issued this id. */
    public boolean issued(String requestId) {
        return issuedAt(requestId).isPresent();
    }

    private String signature(String body) {
        byte[] full = mac.get().doFinal(body.getBytes(StandardCharsets.US_ASCII));
        return HEX.formatHex(full, 0, 8);
    }
}
