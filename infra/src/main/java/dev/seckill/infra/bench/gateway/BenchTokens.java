package dev.seckill.infra.bench.gateway;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.IdentityProviderTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import java.util.stream.LongStream;

/**
 * The buyers' tokens in {@code bench gateway}, of one kind: {@code hs256}, minted with a secret of the run that the
 * gateway holds, or {@code rs256}, minted as an identity provider would with an RSA-2048 key of the run whose public
 * half the gateway reads from a JWKS file (signed by {@link IdentityProviderTokens}). Tokens are minted before a
 * phase (all cores), never while it is timed.
 */
final class BenchTokens implements AutoCloseable {
    private final String kind;
    private final Map<String, String> gatewaySettings;
    private final LongFunction<String> mint;
    private final Path jwks;
    private final Map<Long, String> minted = new ConcurrentHashMap<>();

    private BenchTokens(String kind, Map<String, String> gatewaySettings, LongFunction<String> mint, Path jwks) {
        this.kind = kind;
        this.gatewaySettings = gatewaySettings;
        this.mint = mint;
        this.jwks = jwks;
    }

    /** Tokens of {@code kind} (hs256 or rs256), valid for an hour. */
    static BenchTokens of(String kind) throws IOException, JOSEException {
        Instant exp = Instant.now().plusSeconds(3600);
        if (kind.equals("hs256")) {
            String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
            Jwt jwt = new Jwt(secret, Clock.systemUTC());
            return new BenchTokens(
                    kind, Map.of(GatewaySettings.AUTH_SECRET.name(), secret), u -> jwt.mint(u, exp), null);
        }
        RSAKey key =
                new RSAKeyGenerator(2048).keyID("bench-" + UUID.randomUUID()).generate();
        Path jwks = Files.createTempFile("bench-jwks-", ".json");
        Files.writeString(jwks, new JWKSet(key.toPublicJWK()).toString());
        IdentityProviderTokens signed = new IdentityProviderTokens(key, null, null);
        LongFunction<String> mint = u -> signed.mint(u, exp);
        return new BenchTokens(kind, Map.of(GatewaySettings.AUTH_JWKS.name(), jwks.toString()), mint, jwks);
    }

    String kind() {
        return kind;
    }

    /** What the gateway needs to verify these tokens. */
    Map<String, String> gatewaySettings() {
        return gatewaySettings;
    }

    /** Mints the tokens of buyers {@code firstUser .. firstUser + users - 1} now, on every core. */
    void prepare(long firstUser, int users) {
        LongStream.range(firstUser, firstUser + users).parallel().forEach(u -> minted.computeIfAbsent(u, mint::apply));
    }

    /** The Authorization header of a buyer (minted now if it was not prepared). */
    LongFunction<String> bearer() {
        return u -> "Bearer " + minted.computeIfAbsent(u, mint::apply);
    }

    /** Drops the minted tokens (a phase's buyers are not the next one's). */
    void forget() {
        minted.clear();
    }

    @Override
    public void close() throws IOException {
        if (jwks != null) Files.deleteIfExists(jwks);
    }
}
