package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.auth.TokenKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens signed with an identity provider's private JWK (RSA → RS256, EC P-256 → ES256) are accepted by the gateway's
 * {@link Jwt} on the provider's public JWKS, with its issuer and audience; keys that cannot sign such tokens are refused
 * in one line saying why.
 */
@Tag("fast")
class IdentityProviderTokensTest {
    static final String ISS = "https://idp.example/realms/shop";
    static final String AUD = "seckill-gateway";
    static RSAKey rsa;
    static ECKey ec;

    @TempDir
    Path dir;

    @BeforeAll
    static void keys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
    }

    /** The gateway's verifier on the provider's public keys, checking iss and aud. */
    Jwt gateway() throws Exception {
        Path jwks = Files.writeString(
                dir.resolve("public-jwks.json"), new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());
        return new Jwt(
                TokenKeys.jwks(jwks.toString(), Duration.ofMinutes(5), "RS256,ES256"),
                Clock.systemUTC(),
                new Jwt.Policy(ISS, AUD, Jwt.DEFAULT_MAX_LIFETIME));
    }

    Path file(String name, String json) throws Exception {
        return Files.writeString(dir.resolve(name), json);
    }

    static String refusal(Jwt jwt, String token) {
        try {
            return "accepted as " + jwt.verify(token);
        } catch (Jwt.Refused e) {
            return e.getMessage();
        }
    }

    @Test
    void tokensOfAnRsaJwkAndOfAnEcKeyInASet_areAcceptedByTheGatewayOnThePublicJwks() throws Exception {
        Instant exp = Instant.now().plusSeconds(3600);
        // a single private JWK, and a set whose first key is public (the provider's other key): its private key signs
        IdentityProviderTokens byRsa = IdentityProviderTokens.fromFile(file("rsa.json", rsa.toJSONString()), ISS, AUD);
        IdentityProviderTokens byEc = IdentityProviderTokens.fromFile(
                file("set.json", new JWKSet(List.of(rsa.toPublicJWK(), ec)).toString(false)), ISS, AUD);
        assertThat(byRsa.algorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(byEc.algorithm()).isEqualTo(JWSAlgorithm.ES256);

        String rsaToken = byRsa.mint(41, exp);
        SignedJWT parsed = SignedJWT.parse(rsaToken);
        assertThat(parsed.getHeader().getKeyID()).isEqualTo("rsa-1");
        assertThat(parsed.getJWTClaimsSet().getIssueTime()).isNotNull();
        assertThat(parsed.getJWTClaimsSet().getAudience()).containsExactly(AUD);
        assertThat(SignedJWT.parse(byEc.mint(42, exp)).getHeader().getKeyID()).isEqualTo("ec-1");
        try (Jwt gateway = gateway()) {
            assertThat(gateway.verify(rsaToken)).isEqualTo(41);
            assertThat(gateway.verify(byEc.mint(42, exp))).isEqualTo(42);
        }
    }

    @Test
    void theIssuerAndAudienceGivenAreTheTokens_andTheGatewayRefusesOthers() throws Exception {
        Instant exp = Instant.now().plusSeconds(3600);
        try (Jwt gateway = gateway()) {
            assertThat(refusal(gateway, new IdentityProviderTokens(ec, null, null).mint(7, exp)))
                    .isEqualTo("token issuer is not accepted");
            assertThat(refusal(gateway, new IdentityProviderTokens(ec, ISS, "another-api").mint(7, exp)))
                    .isEqualTo("token audience is not accepted");
            assertThat(refusal(gateway, new IdentityProviderTokens(rsa, ISS, AUD).mint(7, exp)))
                    .isEqualTo("accepted as 7");
        }
    }

    @Test
    void keysThatCannotSignTheGatewaysTokensAreRefusedInOneLine() throws Exception {
        String publicSet = new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString();
        JWK withoutKid = new RSAKey.Builder(rsa).keyID(null).build();
        JWK p384 = new ECKeyGenerator(Curve.P_384).keyID("ec-384").generate();
        JWK oct = new OctetSequenceKeyGenerator(256).keyID("hmac").generate();
        JWK ps256 = new RSAKey.Builder(rsa).algorithm(JWSAlgorithm.PS256).build();
        assertRefused(file("public.json", publicSet), "the key is public only: it cannot sign tokens");
        assertRefused(file("nokid.json", withoutKid.toJSONString()), "the key has no kid");
        assertRefused(file("p384.json", p384.toJSONString()), "unsupported key type EC P-384");
        assertRefused(file("oct.json", oct.toJSONString()), "unsupported key type oct");
        assertRefused(file("ps256.json", ps256.toJSONString()), "the key is for PS256");
        assertRefused(file("empty.json", "{\"keys\": []}"), "is a JWK set without keys");
        assertRefused(file("text.json", "not json\nat all"), "is not a JWK or a JWK set");
        assertRefused(dir.resolve("absent.json"), "no file " + dir.resolve("absent.json"));
    }

    static void assertRefused(Path file, String reason) {
        assertThatThrownBy(() -> IdentityProviderTokens.fromFile(file, ISS, AUD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(reason)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
