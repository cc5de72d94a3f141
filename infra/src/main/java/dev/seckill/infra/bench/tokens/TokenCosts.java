package dev.seckill.infra.bench.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.auth.TokenKeys;
import dev.seckill.infra.harness.IdentityProviderTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the gateway's token check ({@link Jwt}, against a JWKS file as with an identity provider) costs per request, by
 * JMH: a buyer's token verified before ({@code verifiedBefore}: the cache), a forged token seen for the first time
 * ({@code forgedNew}: parsed, signature checked, refused — what each token of a flood of distinct forgeries costs, and
 * what a buyer's first request costs, the signature check being the bulk of both), and the same forged token again
 * ({@code forgedAgain}: refused from memory). The forged tokens carry the provider's header and a real signature of
 * another token, over claims of their own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TokenCosts {
    @Param({"RS256", "ES256"})
    public String algorithm;

    private Path jwks;
    private Jwt jwt;
    private String valid;
    private String header;
    private String signature;
    private String forged;
    private long next = 1_000_000;

    @Setup(Level.Trial)
    public void keys() throws IOException, JOSEException, Jwt.Refused {
        JWK key = algorithm.equals("RS256")
                ? new RSAKeyGenerator(2048).keyID("bench-rsa").generate()
                : new ECKeyGenerator(Curve.P_256).keyID("bench-ec").generate();
        jwks = Files.createTempFile("bench-tokens-", ".json");
        Files.writeString(jwks, new JWKSet(key.toPublicJWK()).toString());
        jwt = new Jwt(
                TokenKeys.jwks(jwks.toString(), Duration.ofMinutes(5), "RS256,ES256"),
                Clock.systemUTC(),
                new Jwt.Policy(null, null, Jwt.DEFAULT_MAX_LIFETIME));
        valid = new IdentityProviderTokens(key, null, null)
                .mint(1, Instant.now().plusSeconds(3600));
        String[] parts = valid.split("\\.");
        header = parts[0];
        signature = parts[2];
        forged = forged(2);
        jwt.verify(valid); // cached from here on
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        jwt.close();
        Files.deleteIfExists(jwks);
    }

    /** A token naming the provider's key, with another token's signature over {@code user}'s claims. */
    String forged(long user) {
        String claims = "{\"sub\":\"" + user + "\",\"exp\":" + (Instant.now().getEpochSecond() + 3600) + "}";
        return header + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "."
                + signature;
    }

    /** Tokens checked in full so far (what the caches did not answer). */
    long fullChecks() {
        return jwt.verifications();
    }

    static String refusal(Jwt jwt, String token) {
        try {
            return "accepted as " + jwt.verify(token);
        } catch (Jwt.Refused e) {
            return e.getMessage();
        }
    }

    @Benchmark
    public long verifiedBefore() throws Jwt.Refused {
        return jwt.verify(valid);
    }

    @Benchmark
    public String forgedNew() {
        return refusal(jwt, forged(next++));
    }

    @Benchmark
    public String forgedAgain() {
        return refusal(jwt, forged);
    }
}
