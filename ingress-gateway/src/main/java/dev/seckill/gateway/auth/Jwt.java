package dev.seckill.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.LongAdder;

/**
 * The buyer's identity from a bearer JWT, verified by nimbus-jose-jwt against {@link TokenKeys} (an identity
 * provider's JWKS, RS256/ES256, or an HS256 secret for local runs) and {@link TokenRules} ({@code sub} = userId,
 * {@code exp} required, {@code iss}/{@code aud} when configured, a maximum lifetime, a leeway for clock skew); the
 * algorithm is the gateway's choice, never the token's ({@code none} and unlisted algorithms are refused). Verified
 * tokens are cached ({@link VerifiedTokens}): a buyer retrying during a sale is then checked for expiry, and for its
 * key still being in the set, only. Mints HS256 tokens when built on a secret (the demo's simulated buyers, tests).
 */
public final class Jwt implements AutoCloseable {
    /** Verified tokens kept at most by default (least recently and frequently used ones make room). */
    static final int CACHE_MAX = 500_000;

    /** The longest a token may live by default: a day, the span of a sale and its payments. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofHours(24);

    /** How far the gateway's clock may be from the issuer's by default, for {@code exp} and {@code nbf}. */
    public static final Duration DEFAULT_LEEWAY = Duration.ofSeconds(5);

    /**
     * What a token must say besides its signature: {@code issuer} and {@code audience} (null: not checked), the
     * longest lifetime it may claim, and the leeway on its {@code exp} and {@code nbf}.
     */
    public record Policy(String issuer, String audience, Duration maxLifetime, Duration leeway) {
        public static final Policy DEFAULT = new Policy(null, null, DEFAULT_MAX_LIFETIME);

        public Policy {
            if (maxLifetime == null || maxLifetime.isNegative() || maxLifetime.isZero()) {
                throw new IllegalArgumentException("the maximum token lifetime must be positive");
            }
            if (leeway == null || leeway.isNegative() || leeway.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException("the token leeway must be between 0 and 300 seconds");
            }
            if (issuer != null && issuer.isEmpty()) issuer = null;
            if (audience != null && audience.isEmpty()) audience = null;
        }

        public Policy(String issuer, String audience, Duration maxLifetime) {
            this(issuer, audience, maxLifetime, DEFAULT_LEEWAY);
        }
    }

    /**
     * Why a token was refused; the message is safe to show to the caller. {@code lasting}: the same token will be
     * refused again whatever happens (a bad signature, a malformed token, claims that do not hold); not lasting: it may
     * be accepted later (not valid yet, a key not read yet, the keys unavailable).
     */
    public static final class Refused extends Exception {
        private final boolean lasting;

        public Refused(String message) {
            this(message, true);
        }

        Refused(String message, boolean lasting) {
            super(message);
            this.lasting = lasting;
        }

        public boolean lasting() {
            return lasting;
        }
    }

    private final TokenKeys keys;
    private final Policy policy;
    private final Clock clock;
    private final TokenCheck full;
    private final VerifiedTokens verified;
    private final RefusedTokens refused;
    private final LongAdder verifications = new LongAdder();
    private final MACSigner signer;

    public Jwt(String secret, Clock clock) {
        this(TokenKeys.secret(secret), clock, Policy.DEFAULT, CACHE_MAX);
    }

    public Jwt(String secret, Clock clock, Policy policy) {
        this(TokenKeys.secret(secret), clock, policy, CACHE_MAX);
    }

    Jwt(String secret, Clock clock, int cacheMax) {
        this(TokenKeys.secret(secret), clock, Policy.DEFAULT, cacheMax);
    }

    public Jwt(TokenKeys keys, Clock clock, Policy policy) {
        this(keys, clock, policy, CACHE_MAX);
    }

    Jwt(TokenKeys keys, Clock clock, Policy policy, int cacheMax) {
        this.keys = keys;
        this.policy = policy;
        this.clock = clock;
        this.verified = new VerifiedTokens(cacheMax);
        this.refused = new RefusedTokens(Math.max(1, cacheMax / 5), keys.refusalMemory(), clock);
        this.full = new TokenCheck(keys, new TokenRules(policy, clock));
        try {
            this.signer = keys.secret() == null ? null : new MACSigner(keys.secret());
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the JWT secret is too short for HS256", e);
        }
    }

    /** A token for {@code userId} until {@code expiresAt}, with this verifier's issuer and audience when it has them. */
    public String mint(long userId, Instant expiresAt) {
        JWTClaimsSet.Builder claims =
                new JWTClaimsSet.Builder().subject(Long.toString(userId)).expirationTime(Date.from(expiresAt));
        if (policy.issuer() != null) claims.issuer(policy.issuer());
        if (policy.audience() != null) claims.audience(policy.audience());
        return mint(claims.build().toString());
    }

    /** An HS256 token over any claims (tests of what verification refuses); only when built on a secret. */
    String mint(String claimsJson) {
        if (signer == null) throw new IllegalStateException("only an HS256 secret mints; a JWKS holds public keys");
        JWSObject jws = new JWSObject(
                new JWSHeader.Builder(JWSAlgorithm.HS256)
                        .type(JOSEObjectType.JWT)
                        .build(),
                new Payload(claimsJson));
        try {
            jws.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jws.serialize();
    }

    /** The verified userId of a token, or {@link Refused} with the reason. */
    public long verify(String token) throws Refused {
        return verify(lookup(token));
    }

    /** A token, its cache key, and whether the caches answer it (then {@link #verify} checks no signature). */
    public record Lookup(String token, String key, boolean remembered) {}

    /**
     * The token looked up in the caches (verified before, or refused for good before), hashed once for this and for
     * {@link #verify(Lookup)}. The door charges the tokens not remembered to the client address's budget of refusals.
     */
    public Lookup lookup(String token) {
        if (token == null || token.isBlank()) return new Lookup(token, null, true);
        String key = VerifiedTokens.key(token);
        return new Lookup(token, key, verified.get(key) != null || refused.reason(key) != null);
    }

    /** Whether this token's answer is remembered: {@code lookup(token).remembered()}. */
    public boolean remembers(String token) {
        return lookup(token).remembered();
    }

    /** The verified userId of a looked-up token, or {@link Refused} with the reason. */
    public long verify(Lookup token) throws Refused {
        if (token.key() == null) throw new Refused("missing bearer token");
        String key = token.key();
        VerifiedTokens.Entry known = verified.get(key);
        if (known == null) {
            String before = refused.reason(key);
            if (before != null) throw new Refused(before);
            verifications.increment();
            try {
                known = full.check(token.token());
            } catch (Refused e) {
                if (e.lasting()) refused.put(key, e.getMessage());
                throw e;
            }
            verified.put(key, known);
            return known.userId();
        }
        long now = clock.instant().getEpochSecond();
        long leeway = policy.leeway().toSeconds();
        if (now >= known.exp() + leeway) throw new Refused("token expired");
        if (now < known.nbf() - leeway) throw new Refused(TokenRules.NOT_YET_VALID, false);
        if (known.kid() != null && !keys.stillHas(known.kid())) {
            verified.remove(key);
            throw new Refused("token signing key is not known", false);
        }
        return known.userId();
    }

    /** Tokens the caches did not answer since the start (each parsed and, unless its header fails, signature-checked). */
    public long verifications() {
        return verifications.sum();
    }

    /** How many verified tokens are cached now. */
    int cachedTokens() {
        return verified.size();
    }

    /** Stops the JWKS refresh, if any. */
    @Override
    public void close() {
        keys.close();
    }

    @Override
    public String toString() {
        return "Jwt[" + keys + ", leeway " + policy.leeway().toSeconds() + " s]";
    }
}
