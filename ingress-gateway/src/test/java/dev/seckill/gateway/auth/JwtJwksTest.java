package dev.seckill.gateway.auth;

import static dev.seckill.gateway.auth.IdentityProvider.AUDIENCE;
import static dev.seckill.gateway.auth.IdentityProvider.ISSUER;
import static dev.seckill.gateway.auth.IdentityProvider.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.keys.HmacKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens from an identity provider (minted by jose4j, see {@link IdentityProvider}) verified against its JWKS: RS256
 * and ES256, the key chosen by the token's kid, a key removed from the set refused after the refresh (cached or not),
 * a key never in it refused, exp/nbf with the leeway, iss/aud, and refusals that name the problem and nothing else.
 */
@Tag("fast")
class JwtJwksTest {
    static final Jwt.Policy POLICY = new Jwt.Policy(ISSUER, AUDIENCE, Jwt.DEFAULT_MAX_LIFETIME);
    static IdentityProvider idp;

    @TempDir
    Path dir;

    Path jwks;
    JwtTest.MovableClock clock;
    final List<Jwt> opened = new ArrayList<>();

    @BeforeEach
    void keys() throws Exception {
        if (idp == null)
            idp = new IdentityProvider().rsa("r1").rsa("r2").ec("e1").rsa("x9");
        jwks = dir.resolve("jwks.json");
        clock = new JwtTest.MovableClock();
        clock.now = Instant.now();
    }

    @AfterEach
    void close() {
        opened.forEach(Jwt::close);
    }

    Jwt gateway(String location, Jwt.Policy policy) {
        Jwt jwt = new Jwt(TokenKeys.jwks(location, Duration.ofSeconds(1), "RS256,ES256"), clock, policy);
        opened.add(jwt);
        return jwt;
    }

    String token(String kid, long user, long iatFromNow, long expFromNow) throws Exception {
        return idp.sign(kid, kid, claims(user, clock.now.plusSeconds(iatFromNow), clock.now.plusSeconds(expFromNow)));
    }

    static String refusal(Jwt jwt, String token) {
        try {
            return "accepted as " + jwt.verify(token);
        } catch (Jwt.Refused e) {
            return e.getMessage();
        }
    }

    @Test
    void rs256AndEs256TokensOfTheSetAreAccepted_theKidChoosingTheKey() throws Exception {
        idp.publish(jwks, "r1", "r2", "e1");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        assertThat(jwt.verify(token("r1", 41, 0, 600))).isEqualTo(41);
        assertThat(jwt.verify(token("r2", 42, 0, 600))).isEqualTo(42);
        assertThat(jwt.verify(token("e1", 43, 0, 600))).as("ES256").isEqualTo(43);
        JwtClaims c = claims(44, clock.now, clock.now.plusSeconds(600));
        assertThat(refusal(jwt, idp.sign("r2", "r1", c)))
                .as("signed by r2 but naming r1: checked against r1 only")
                .isEqualTo("bad token signature");
        assertThat(refusal(jwt, idp.sign("r1", null, c))).isEqualTo("token names no signing key (kid)");
    }

    @Test
    void aKeyNeverInTheSetIsRefused_asAreOtherAlgorithms() throws Exception {
        idp.publish(jwks, "r1", "e1");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        assertThat(refusal(jwt, token("x9", 45, 0, 600))).isEqualTo("token signing key is not known");
        assertThat(refusal(jwt, token("x9", 45, 0, 600))).as("again").isEqualTo("token signing key is not known");
        JwtClaims c = claims(46, clock.now, clock.now.plusSeconds(600));
        JsonWebSignature hs = new JsonWebSignature();
        hs.setPayload(c.toJson());
        hs.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
        hs.setKeyIdHeaderValue("r1");
        hs.setKey(new HmacKey("a-secret-of-at-least-thirty-two-characters".getBytes(StandardCharsets.UTF_8)));
        assertThat(refusal(jwt, hs.getCompactSerialization()))
                .as("HS256 is not accepted with a JWKS")
                .isEqualTo("unsupported token algorithm");
        String none = Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
                + "."
                + token("r1", 46, 0, 600).split("\\.")[1]
                + ".";
        assertThat(refusal(jwt, none)).isEqualTo("unsupported token algorithm");
        Jwt esOnly = new Jwt(TokenKeys.jwks(jwks.toString(), Duration.ofSeconds(1), "ES256"), clock, POLICY);
        opened.add(esOnly);
        assertThat(refusal(esOnly, token("r1", 47, 0, 600))).isEqualTo("unsupported token algorithm");
        assertThat(esOnly.verify(token("e1", 47, 0, 600))).isEqualTo(47);
    }

    @Test
    void theLeewayCoversAClockSkew_firstTimeAndFromTheCache() throws Exception {
        idp.publish(jwks, "r1");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        JwtClaims ahead = claims(50, clock.now.plusSeconds(2), clock.now.plusSeconds(600));
        ahead.setNotBefore(ahead.getIssuedAt());
        assertThat(jwt.verify(idp.sign("r1", "r1", ahead)))
                .as("minted by an issuer 2 s ahead: nbf in 2 s")
                .isEqualTo(50);
        assertThat(jwt.verify(token("r1", 51, -600, -2)))
                .as("expired 2 s ago: within 5 s")
                .isEqualTo(51);
        assertThat(refusal(jwt, token("r1", 52, -600, -10))).isEqualTo("token expired");
        JwtClaims later = claims(53, clock.now, clock.now.plusSeconds(600));
        later.setNotBefore(NumericDate.fromSeconds(clock.now.getEpochSecond() + 10));
        assertThat(refusal(jwt, idp.sign("r1", "r1", later))).isEqualTo("token not yet valid");

        String cached = token("r1", 54, 0, 60);
        assertThat(jwt.verify(cached)).isEqualTo(54);
        clock.now = clock.now.plusSeconds(64);
        assertThat(jwt.verify(cached)).as("cached, 4 s past exp").isEqualTo(54);
        clock.now = clock.now.plusSeconds(1);
        assertThat(refusal(jwt, cached)).as("cached, 5 s past exp").isEqualTo("token expired");

        Jwt strict =
                gateway(jwks.toString(), new Jwt.Policy(ISSUER, AUDIENCE, Jwt.DEFAULT_MAX_LIFETIME, Duration.ZERO));
        assertThat(refusal(strict, token("r1", 55, -600, -2)))
                .as("no leeway configured")
                .isEqualTo("token expired");
    }

    @Test
    void issuerAndAudienceMustMatch() throws Exception {
        idp.publish(jwks, "r1");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        JwtClaims otherIssuer = claims(60, clock.now, clock.now.plusSeconds(600));
        otherIssuer.setIssuer("https://evil.example");
        assertThat(refusal(jwt, idp.sign("r1", "r1", otherIssuer))).isEqualTo("token issuer is not accepted");
        JwtClaims otherAudience = claims(61, clock.now, clock.now.plusSeconds(600));
        otherAudience.setAudience("payments", "reports");
        assertThat(refusal(jwt, idp.sign("r1", "r1", otherAudience))).isEqualTo("token audience is not accepted");
        JwtClaims both = claims(62, clock.now, clock.now.plusSeconds(600));
        both.setAudience("other", AUDIENCE);
        assertThat(jwt.verify(idp.sign("r1", "r1", both)))
                .as("ours among several")
                .isEqualTo(62);
        JwtClaims tooLong = claims(63, clock.now, clock.now.plusSeconds(86_401));
        assertThat(refusal(jwt, idp.sign("r1", "r1", tooLong))).isEqualTo("token lifetime exceeds 86400 seconds");
        JwtClaims notAUser = claims(64, clock.now, clock.now.plusSeconds(600));
        notAUser.setSubject("alice");
        assertThat(refusal(jwt, idp.sign("r1", "r1", notAUser))).isEqualTo("token subject is not a userId");
    }

    @Test
    void refusalsNameTheProblem_withoutInternals() throws Exception {
        idp.publish(jwks, "r1");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        JwtClaims otherIssuer = claims(70, clock.now, clock.now.plusSeconds(600));
        otherIssuer.setIssuer("https://evil.example");
        String good = token("r1", 70, 0, 600);
        List<String> refusals = List.of(
                refusal(jwt, "not-a-jwt"),
                refusal(jwt, good.substring(0, good.length() - 4) + "AAAA"),
                refusal(jwt, token("x9", 70, 0, 600)),
                refusal(jwt, token("r1", 70, -600, -60)),
                refusal(jwt, idp.sign("r1", "r1", otherIssuer)));
        assertThat(refusals)
                .containsExactly(
                        "malformed token",
                        "bad token signature",
                        "token signing key is not known",
                        "token expired",
                        "token issuer is not accepted");
        assertThat(String.join(" ", refusals))
                .as("no configuration, library or key detail")
                .doesNotContain(ISSUER, jwks.toString(), "JWT", "nimbus", "x9", "r1", "Exception");
    }

    @Test
    void aKeyRemovedFromTheSetIsRefusedAfterTheRefresh_evenForACachedToken() throws Exception {
        idp.publish(jwks, "r1", "r2");
        Jwt jwt = gateway(jwks.toString(), POLICY);
        String old = token("r1", 80, 0, 600);
        String current = token("r2", 81, 0, 600);
        assertThat(jwt.verify(old)).isEqualTo(80);
        assertThat(jwt.verify(current)).isEqualTo(81);
        idp.publish(jwks, "r2");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(refusal(jwt, old)).isEqualTo("token signing key is not known"));
        assertThat(jwt.verify(current)).as("the key still in the set").isEqualTo(81);
        assertThat(refusal(jwt, old)).as("and stays refused").isEqualTo("token signing key is not known");
    }

    @Test
    void theJwksIsReadFromAUrl_andANewKidReadsItAgainAtOnce() throws Exception {
        AtomicReference<String> served = new AtomicReference<>(idp.jwks("r1"));
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/.well-known/jwks.json", ex -> {
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        http.start();
        try {
            Jwt jwt = gateway("http://127.0.0.1:" + http.getAddress().getPort() + "/.well-known/jwks.json", POLICY);
            assertThat(jwt.verify(token("r1", 90, 0, 600))).isEqualTo(90);
            served.set(idp.jwks("r1", "e1"));
            assertThat(jwt.verify(token("e1", 91, 0, 600)))
                    .as("a kid not seen yet makes the gateway read the set again, not refuse")
                    .isEqualTo(91);
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aGatewayWithNoUsableKeysDoesNotStart() throws Exception {
        Path missing = dir.resolve("missing.json");
        assertThatThrownBy(() -> TokenKeys.jwks(missing.toString(), Duration.ofSeconds(60), "RS256"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot read the JWKS at " + missing);
        Files.writeString(jwks, "{\"keys\":[]}");
        assertThatThrownBy(() -> TokenKeys.jwks(jwks.toString(), Duration.ofSeconds(60), "RS256"))
                .hasMessageContaining("has no keys");
        idp.publish(jwks, "r1");
        for (String algorithms : List.of("HS256", "none", "RS256,HS512", " "))
            assertThatThrownBy(() -> TokenKeys.jwks(jwks.toString(), Duration.ofSeconds(60), algorithms))
                    .as(algorithms)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("SECKILL_GATEWAY_AUTH_ALGORITHMS");
    }
}
