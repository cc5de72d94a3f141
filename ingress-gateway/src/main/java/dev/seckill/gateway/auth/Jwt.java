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

    private final SecretKeySpec key;
    private final Clock clock;

    public Jwt(String secret, Clock clock) {
        if (secret == null || secret.length() < 32) {
            throw new IllegalArgumentException("the JWT secret must be at least 32 characters (SECKILL_GATEWAY_AUTH_SECRET)");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        this.clock = clock;
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
        long now = clock.instant().getEpochSecond();
        if (now >= exp.asLong()) throw new Refused("token expired");
        if (claims.has("nbf") && now < claims.get("nbf").asLong()) throw new Refused("token not yet valid");
        try {
            long sub = Long.parseLong(claims.path("sub").asText(""));
            if (sub <= 0) throw new Refused("token subject is not a positive userId");
            return sub;
        } catch (NumberFormatException e) {
            throw new Refused("token subject is not a userId");
        }
    }

    private byte[] sign(String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(input.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
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
