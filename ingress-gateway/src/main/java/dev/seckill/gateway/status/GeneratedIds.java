package dev.seckill.gateway.status;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
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
 *
 * <p>A purchase a draw holds is not decided within the pending bound (a window lasts up to 10 minutes): its id also
 * carries the draw's window end and cutoff, signed with the rest — {@code g-<random><issued ms><closes ms><cutoff -
 * closes, ms><mac>}, 64 characters ({@link #nextHeld}) — so that any instance answers it WAITING_DRAW until the draw is
 * due and the bound after it ({@link #held}), still with no store write.
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

    /** The length of an id a gateway issued: 45, or {@link #HELD_LENGTH} for a purchase a draw holds. */
    private static final int LENGTH = 45;

    private static final int HELD_LENGTH = 64;
    /** The most an id can say: 11 hex digits of epoch ms (until the year 2527), 8 of a cutoff after its window end. */
    private static final long MAX_MS = 0xfff_ffff_ffffL;

    private static final long MAX_ALLOWANCE_MS = 0xffff_ffffL;

    public String next(long issuedAtMs) {
        return signed(random() + String.format("%011x", issuedAtMs));
    }

    /**
     * An id for a purchase accepted at {@code issuedAtMs} that {@code draw} holds: it says the draw's window end and
     * cutoff as well ({@link #held}). A draw whose times an id cannot say gets a plain id ({@link #next}).
     */
    public String nextHeld(long issuedAtMs, DrawWait draw) {
        long closes = draw.closesAt().toEpochMilli();
        long allowance = draw.cutoffAt().toEpochMilli() - closes;
        if (closes < 0 || closes > MAX_MS || allowance < 0 || allowance > MAX_ALLOWANCE_MS) return next(issuedAtMs);
        return signed(random() + String.format("%011x%011x%08x", issuedAtMs, closes, allowance));
    }

    /** When a gateway issued this id (epoch ms); empty when no gateway with this secret did. */
    public OptionalLong issuedAt(String requestId) {
        String body = body(requestId);
        if (body == null) return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseLong(body.substring(16, 27), 16));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The draw a gateway said this id's purchase waits for when it issued it ({@link #nextHeld}): its window end and
     * cutoff (the beacon round is not in the id); null for any other id.
     */
    public DrawWait held(String requestId) {
        String body = requestId.length() == HELD_LENGTH ? body(requestId) : null;
        if (body == null) return null;
        try {
            long closes = Long.parseLong(body.substring(27, 38), 16);
            long allowance = Long.parseLong(body.substring(38), 16);
            return new DrawWait(Instant.ofEpochMilli(closes), Instant.ofEpochMilli(closes + allowance), null);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The signed part of an id a gateway issued (random, issued ms, and a held id's draw); null for any other id. */
    private String body(String requestId) {
        int length = requestId.length();
        if ((length != LENGTH && length != HELD_LENGTH) || !requestId.startsWith(PREFIX)) return null;
        String body = requestId.substring(2, length - 16);
        byte[] given = requestId.substring(length - 16).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(given, signature(body).getBytes(StandardCharsets.US_ASCII)) ? body : null;
    }

    private static String random() {
        byte[] random = new byte[8];
        RANDOM.get().nextBytes(random);
        return HEX.formatHex(random);
    }

    private String signed(String body) {
        return PREFIX + body + signature(body);
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
