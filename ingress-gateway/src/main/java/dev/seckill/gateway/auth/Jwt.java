package dev.seckill.gateway.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.seckill.contracts.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 JSON Web Tokens (HS256): verification of the buyer's identity ({@code sub} = userId, {@code exp}
 * required) and minting, for the demo's simulated buyers and for tests. Only HS256 is accepted, so a token cannot
 * choose a weaker algorithm ("alg": "none"). Time claims ({@code exp}, {@code nbf}, {@code iat}) must be integers;
 * a token may live at most {@code maxLifetime} ({@code exp - iat}, or {@code exp - now} without {@code iat}), so a
 * leaked token is not good for years; {@code iss} and {@code aud} are checked when the gateway is configured with them.
 */
public final class Jwt {
    private static final Base64.Encoder ENC = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DEC = Base64.getUrlDecoder();
    private static final String HEADER =
            ENC.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    /** Verified tokens kept at most by default; the cache is emptied when it reaches this (a flash sale's buyers fit). */
    static final int CACHE_MAX = 500_000;

    /** The longest a token may live by default: a day, the span of a sale and its payments. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofHours(24);

    /**
     * What a token must say besides its signature: {@code issuer} and {@code audience} (null: not checked) and the
     * longest lifetime it may claim.
     */
    public record Policy(String issuer, String audience, Duration maxLifetime) {
        public static final Policy DEFAULT = new Policy(null, null, DEFAULT_MAX_LIFETIME);

        public Policy {
            if (maxLifetime == null || maxLifetime.isNegative() || maxLifetime.isZero()) {
                throw new IllegalArgumentException("the maximum token lifetime must be positive");
            }
            if (issuer != null && issuer.isEmpty()) issuer = null;
            if (audience != null && audience.isEmpty()) audience = null;
        }
    }

    /** What a verified token says: its subject and validity window (epoch seconds; nbf 0 when absent). */
    private record Claims(long sub, long exp, long nbf) {}

    private final SecretKeySpec key;
    private final Clock clock;
    private final ThreadLocal<Mac> macs;
    private final int cacheMax;
    private final Policy policy;
    /**
     * Tokens verified before, by their exact text (signature included, so a forged token never matches one): a
     * buyer retrying during a sale sends the same token again and again, and is then checked for expiry only.
     */
    private final ConcurrentHashMap<String, Claims> verified = new ConcurrentHashMap<>();

    public Jwt(String secret, Clock clock) {
        this(secret, clock, Policy.DEFAULT, CACHE_MAX);
    }

    public Jwt(String secret, Clock clock, Policy policy) {
        this(secret, clock, policy, CACHE_MAX);
    }

    Jwt(String secret, Clock clock, int cacheMax) {
        this(secret, clock, Policy.DEFAULT, cacheMax);
    }

    Jwt(String secret, Clock clock, Policy policy, int cacheMax) {
        this.cacheMax = cacheMax;
        this.policy = policy;
        if (secret == null || secret.length() < 32) {
            throw new IllegalArgumentException(
                    "the JWT secret must be at least 32 characters (SECKILL_GATEWAY_AUTH_SECRET)");
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
        public Refused(String message) {
            super(message);
        }
    }

    /** A token for {@code userId} until {@code expiresAt}, with this verifier's issuer and audience when it has them. */
    public String mint(long userId, Instant expiresAt) {
        StringBuilder claims = new StringBuilder("{\"sub\":\"")
                .append(userId)
                .append("\",\"exp\":")
                .append(expiresAt.getEpochSecond());
        if (policy.issuer() != null)
            claims.append(",\"iss\":").append(TextNode.valueOf(policy.issuer()).toString());
        if (policy.audience() != null)
            claims.append(",\"aud\":")
                    .append(TextNode.valueOf(policy.audience()).toString());
        return mint(claims.append('}').toString());
    }

    /** A token signed with this key over any claims (tests of what verification refuses). */
    String mint(String claimsJson) {
        String signingInput = HEADER + "." + ENC.encodeToString(claimsJson.getBytes(StandardCharsets.UTF_8));
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
    int cachedTokens() {
        return verified.size();
    }

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
        if (exp == null) throw new Refused("token has no expiry");
        long expiresAt = seconds(exp, "exp");
        // a present but unreadable nbf/iat is refused: read as 0 it would silently make the token valid at once
        long nbf = claims.has("nbf") ? seconds(claims.get("nbf"), "nbf") : 0;
        long now = clock.instant().getEpochSecond();
        // from iat, or from now when iat is absent or claims the future (else iat = next year would stretch the
        // window);
        // checked once, when the token is first verified: exp - now only shrinks afterwards
        long from = claims.has("iat") ? Math.min(seconds(claims.get("iat"), "iat"), now) : now;
        if (expiresAt - from > policy.maxLifetime().toSeconds()) {
            throw new Refused("token lifetime exceeds " + policy.maxLifetime().toSeconds() + " seconds");
        }
        if (policy.issuer() != null
                && !policy.issuer().equals(claims.path("iss").asText(null))) {
            throw new Refused("token issuer is not accepted");
        }
        if (policy.audience() != null && !hasAudience(claims.get("aud"), policy.audience())) {
            throw new Refused("token audience is not accepted");
        }
        try {
            long sub = Long.parseLong(claims.path("sub").asText(""));
            if (sub <= 0) throw new Refused("token subject is not a positive userId");
            return new Claims(sub, expiresAt, nbf);
        } catch (NumberFormatException e) {
            throw new Refused("token subject is not a userId");
        }
    }

    /** A NumericDate claim: an integer count of seconds (RFC 7519 allows fractions; we issue and take whole seconds). */
    private static long seconds(JsonNode n, String name) throws Refused {
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong())
            throw new Refused("token " + name + " is not a number of seconds");
        return n.asLong();
    }

    /** {@code aud} is one string or an array of strings (RFC 7519 4.1.3); the token must name ours. */
    private static boolean hasAudience(JsonNode aud, String expected) {
        if (aud == null) return false;
        if (aud.isTextual()) return aud.asText().equals(expected);
        if (aud.isArray()) {
            for (JsonNode a : aud) if (a.isTextual() && a.asText().equals(expected)) return true;
        }
        return false;
    }

    private byte[] sign(String input) {
        return macs.get().doFinal(input.getBytes(StandardCharsets.UTF_8)); // doFinal resets the Mac for the next use
    }

    private static JsonNode json(String part) throws Refused {
        try {
            JsonNode n = Json.MAPPER.readTree(DEC.decode(part));
            if (n == null || !n.isObject()) throw new Refused("malformed token");
            return n;
        } catch (IllegalArgumentException | IOException e) {
            throw new Refused("malformed token");
        }
    }
}
