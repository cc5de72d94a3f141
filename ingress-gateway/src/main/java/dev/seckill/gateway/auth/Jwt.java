package dev.seckill.gateway.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 JSON Web Tokens (HS256): verification of the buyer's identity ({@code sub} = userId, {@code exp}
 * required) and minting, for the demo's simulated buyers and for tests. Only HS256 is accepted, so a token cannot
 * choose a weaker algorithm ("alg": "none").
 */
public final class Jwt {
    private static final Base64.Encoder ENC = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DEC = Base64.getUrlDecoder();
    private static final String HEADER = ENC.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    /** Verified tokens kept at most by default; the cache is emptied when it reaches this (a flash sale's buyers fit). */
    static final int CACHE_MAX = 500_000;

    /** What a verified token says: its subject and validity window (epoch seconds; nbf 0 when absent). */
    private record Claims(long sub, long exp, long nbf) {}

    private final SecretKeySpec key;
    private final Clock clock;
    private final ThreadLocal<Mac> macs;
    private final int cacheMax;
    /**
     * Tokens verified before, by their exact text (signature included, so a forged token never matches one): a
     * buyer retrying during a sale sends the same token again and again, and is then checked for expiry only.
     */
    private final java.util.concurrent.ConcurrentHashMap<String, Claims> verified = new java.util.concurrent.ConcurrentHashMap<>();

    public Jwt(String secret, Clock clock) {
        this(secret, clock, CACHE_MAX);
    }

    Jwt(String secret, Clock clock, int cacheMax) {
        this.cacheMax = cacheMax;
        if (secret == null || secret.length() < 32) {
            throw new IllegalArgumentException("the JWT secret must be at least 32 characters (SECKILL_GATEWAY_AUTH_SECRET)");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        this.clock = clock;
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(key);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Why a token was refused; the message is safe to show to the caller. */
    public static final class Refused extends Exception {
        public Refused(String message) { super(message); }
    }

    public String mint(long userId, Instant expiresAt) {
        String payload = ENC.encodeToString(("{\"sub\":\"" + userId + "\",\"exp\":" + expiresAt.getEpochSecond() + "}")
                .getBytes(StandardCharsets.UTF_8));
        String signingInput = HEADER + "." + payload;
        return signingInput + "." + ENC.encodeToString(sign(signingInput));
    }

    /** The verified userId of a token, or {@link Refused} with the reason. */
    public long verify(String token) throws Refused {
        if (token == null || token.isBlank()) throw new Refused("missing bearer token");
        Claims known = verified.get(token);
        if (known == null) {
            known = verifySignatureAndRead(token);
            if (verified.size() >= cacheMax) verified.clear();
            verified.put(token, known);
        }
        long now = clock.instant().getEpochSecond();
        if (now >= known.exp()) throw new Refused("token expired");
        if (now < known.nbf()) throw new Refused("token not yet valid");
        return known.sub();
    }

    /** How many verified tokens are cached now. */
    int cachedTokens() { return verified.size(); }

    private Claims verifySignatureAndRead(String token) throws Refused {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) throw new Refused("malformed token");
        JsonNode header = json(parts[0]);
        if (!"HS256".equals(header.path("alg").asText())) throw new Refused("unsupported token algorithm");
        byte[] given;
        try {
            given = DEC.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new Refused("malformed token signature");
        }
        if (!MessageDigest.isEqual(given, sign(parts[0] + "." + parts[1]))) throw new Refused("bad token signature");
        JsonNode claims = json(parts[1]);
        JsonNode exp = claims.get("exp");
        if (exp == null || !exp.canConvertToLong()) throw new Refused("token has no expiry");
        long nbf = claims.has("nbf") ? claims.get("nbf").asLong() : 0;
        try {
            long sub = Long.parseLong(claims.path("sub").asText(""));
            if (sub <= 0) throw new Refused("token subject is not a positive userId");
            return new Claims(sub, exp.asLong(), nbf);
        } catch (NumberFormatException e) {
            throw new Refused("token subject is not a userId");
        }
    }

    private byte[] sign(String input) {
        return macs.get().doFinal(input.getBytes(StandardCharsets.UTF_8)); // doFinal resets the Mac for the next use
    }

    private static JsonNode json(String part) throws Refused {
        try {
            JsonNode n = Json.MAPPER.readTree(DEC.decode(part));
            if (n == null || !n.isObject()) throw new Refused("malformed token");
            return n;
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw new Refused("malformed token");
        }
    }
}
