package dev.seckill.gateway.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import java.io.Closeable;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * The keys buyer tokens are verified with: the identity provider's public keys from a JWKS (a file or an http(s) URL,
 * refreshed in the background, a token's {@code kid} choosing its key, so that two keys live side by side during a
 * rotation), or, for local runs, an HMAC secret (HS256) that also mints tokens.
 */
public final class TokenKeys implements Closeable {
    /** The asymmetric algorithms a JWKS may be used with (never HMAC, never none). */
    private static final Set<JWSAlgorithm> ASYMMETRIC = union(JWSAlgorithm.Family.RSA, JWSAlgorithm.Family.EC);

    private final JWKSource<SecurityContext> source;
    private final Set<JWSAlgorithm> algorithms;
    private final byte[] secret;
    private final String location;
    private final Duration refresh;

    private TokenKeys(
            JWKSource<SecurityContext> source,
            Set<JWSAlgorithm> algorithms,
            byte[] secret,
            String location,
            Duration refresh) {
        this.source = source;
        this.algorithms = algorithms;
        this.secret = secret;
        this.location = location;
        this.refresh = refresh;
    }

    /** HS256 with a shared secret of at least 32 characters: local runs and tests, where the gateway also mints. */
    public static TokenKeys secret(String secret) {
        if (secret == null || secret.length() < 32) {
            throw new IllegalArgumentException(
                    "the JWT secret must be at least 32 characters (SECKILL_GATEWAY_AUTH_SECRET)");
        }
        byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        return new TokenKeys(new ImmutableSecret<>(key), Set.of(JWSAlgorithm.HS256), key, null, null);
    }

    /**
     * The keys of the JWKS at {@code location} (a file path, or a file, http or https URL), read now (so that a
     * gateway with no usable keys does not start) and then every {@code refresh} in the background; a token naming a
     * {@code kid} not in the set makes an earlier read (at most twice per min(30 s, refresh / 4)). When a read fails,
     * the last set read is kept.
     */
    public static TokenKeys jwks(String location, Duration refresh, String algorithmNames) {
        Set<JWSAlgorithm> algorithms = asymmetric(algorithmNames);
        long ttl = refresh.toMillis();
        if (ttl < 1000) throw new IllegalArgumentException("the JWKS refresh interval must be at least a second");
        long timeout = Math.min(2_000, ttl / 4);
        JWKSource<SecurityContext> source = JWKSourceBuilder.<SecurityContext>create(
                        url(location), new DefaultResourceRetriever(1_000, 1_000, 512 * 1024))
                .cache(ttl, timeout)
                .refreshAheadCache(
                        Math.min(30_000, ttl / 4),
                        null,
                        Executors.newSingleThreadExecutor(daemon("jwks-refresh")),
                        true,
                        Executors.newSingleThreadScheduledExecutor(daemon("jwks-schedule")),
                        true)
                .rateLimited(Math.min(30_000, ttl / 4))
                .outageTolerantForever()
                .build();
        TokenKeys keys = new TokenKeys(source, algorithms, null, location, refresh);
        List<?> usable;
        try {
            usable = source.get(new JWKSelector(new JWKMatcher.Builder().build()), null);
        } catch (KeySourceException e) {
            keys.close();
            throw new IllegalStateException(
                    "cannot read the JWKS at " + location + " (SECKILL_GATEWAY_AUTH_JWKS): " + e.getMessage(), e);
        }
        if (usable.isEmpty()) {
            keys.close();
            throw new IllegalStateException("the JWKS at " + location + " has no keys (SECKILL_GATEWAY_AUTH_JWKS)");
        }
        return keys;
    }

    JWSVerificationKeySelector<SecurityContext> selector() {
        return new JWSVerificationKeySelector<>(algorithms, source);
    }

    Set<JWSAlgorithm> algorithms() {
        return algorithms;
    }

    /** The HMAC secret, when these keys are one (they then mint too), else null. */
    byte[] secret() {
        return secret;
    }

    /**
     * How long a signature refusal may be remembered: until the JWKS is read again (the provider may have fixed a key
     * under the same kid); five minutes for a secret, which never changes while the gateway runs.
     */
    Duration refusalMemory() {
        return refresh != null ? refresh : Duration.ofMinutes(5);
    }

    /** Whether tokens name their key ({@code kid}): with a JWKS they must, so that a removed key can be told. */
    boolean keyIdRequired() {
        return secret == null;
    }

    /**
     * Whether the key {@code kid} is still in the set (true for a secret): a cached token of a key the identity
     * provider has withdrawn is refused from the next refresh on.
     */
    boolean stillHas(String kid) {
        if (secret != null) return true;
        try {
            return !source.get(
                            new JWKSelector(new JWKMatcher.Builder().keyID(kid).build()), null)
                    .isEmpty();
        } catch (KeySourceException e) {
            return false; // the set could not be read again for an unknown kid: the key is not known
        }
    }

    @Override
    public String toString() {
        return secret != null ? "HS256 secret" : "JWKS " + location + " " + algorithms;
    }

    /** Stops the background refresh. */
    @Override
    public void close() {
        if (source instanceof Closeable c) {
            try {
                c.close();
            } catch (IOException e) {
                // nothing to do: the refresh threads are daemons
            }
        }
    }

    static Set<JWSAlgorithm> asymmetric(String names) {
        Set<JWSAlgorithm> algorithms = new LinkedHashSet<>();
        for (String name : names.split(",")) {
            if (name.isBlank()) continue;
            JWSAlgorithm a = JWSAlgorithm.parse(name.trim());
            if (!ASYMMETRIC.contains(a)) {
                throw new IllegalArgumentException(
                        "SECKILL_GATEWAY_AUTH_ALGORITHMS: " + name.trim()
                                + " is not an RSA or EC signature algorithm (with a JWKS, the gateway holds no key that signs)");
            }
            algorithms.add(a);
        }
        if (algorithms.isEmpty()) throw new IllegalArgumentException("SECKILL_GATEWAY_AUTH_ALGORITHMS is empty");
        return Set.copyOf(algorithms);
    }

    static URL url(String location) {
        try {
            if (location.matches("(?i)(https?|file):.*"))
                return URI.create(location).toURL();
            return Path.of(location).toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("SECKILL_GATEWAY_AUTH_JWKS is not a file or a URL: " + location, e);
        }
    }

    private static Set<JWSAlgorithm> union(Set<JWSAlgorithm> a, Set<JWSAlgorithm> b) {
        Set<JWSAlgorithm> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
