package dev.seckill.gateway.auth;

import static dev.seckill.gateway.auth.IdentityProvider.AUDIENCE;
import static dev.seckill.gateway.auth.IdentityProvider.ISSUER;
import static dev.seckill.gateway.auth.IdentityProvider.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refusals remembered: a token refused for good (a forged signature, an expired or wrongly addressed token) is checked
 * once and then refused for the cost of a hash — the second time no signature is checked — while a refusal that may
 * pass later (its {@code nbf} ahead, its key not published yet) is never remembered, so the token passes when its
 * time or its key comes.
 */
@Tag("fast")
class RefusedTokensTest {
    static IdentityProvider idp;

    @TempDir
    Path dir;

    Path jwks;
    JwtTest.MovableClock clock;
    Jwt jwt;

    @BeforeEach
    void gateway() throws Exception {
        if (idp == null) idp = new IdentityProvider().rsa("k1").rsa("k2").rsa("thief");
        jwks = dir.resolve("jwks.json");
        idp.publish(jwks, "k1");
        clock = new JwtTest.MovableClock();
        clock.now = Instant.now();
        jwt = new Jwt(
                TokenKeys.jwks(jwks.toString(), Duration.ofSeconds(1), "RS256,ES256"),
                clock,
                new Jwt.Policy(ISSUER, AUDIENCE, Jwt.DEFAULT_MAX_LIFETIME));
    }

    @AfterEach
    void close() {
        jwt.close();
    }

    JwtClaims hour(long user) {
        return claims(user, clock.now, clock.now.plusSeconds(3600));
    }

    String refusal(String token) {
        try {
            return "accepted as " + jwt.verify(token);
        } catch (Jwt.Refused e) {
            return e.getMessage() + (e.lasting() ? "" : " (may pass later)");
        }
    }

    @Test
    void aForgedTokenIsCheckedOnce_thenRefusedWithoutASignatureCheck() throws Exception {
        String forged = idp.sign("thief", "k1", hour(5)); // names the published key, signed by another
        assertThat(jwt.remembers(forged)).isFalse();
        assertThat(refusal(forged)).isEqualTo("bad token signature");
        assertThat(jwt.verifications()).isEqualTo(1);
        assertThat(jwt.remembers(forged)).isTrue();
        for (int i = 0; i < 5; i++) assertThat(refusal(forged)).isEqualTo("bad token signature");
        assertThat(jwt.verifications()).as("refused from memory").isEqualTo(1);

        String tampered = idp.token("k1", 6);
        tampered = tampered.substring(0, tampered.length() - 4) + (tampered.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertThat(refusal(tampered)).isEqualTo("bad token signature");
        assertThat(refusal(tampered)).isEqualTo("bad token signature");
        assertThat(jwt.verifications()).isEqualTo(2);
    }

    @Test
    void tokensThatCanNeverPassAreRemembered_expiredOrForAnotherAudience() throws Exception {
        String expired = idp.sign("k1", "k1", claims(7, clock.now.minusSeconds(7200), clock.now.minusSeconds(3600)));
        JwtClaims elsewhere = hour(8);
        elsewhere.setAudience("another-service");
        String other = idp.sign("k1", "k1", elsewhere);
        assertThat(refusal(expired)).isEqualTo("token expired");
        assertThat(refusal(other)).isEqualTo("token audience is not accepted");
        assertThat(jwt.remembers(expired)).isTrue();
        assertThat(jwt.remembers(other)).isTrue();
        assertThat(refusal(expired)).isEqualTo("token expired");
        assertThat(refusal(other)).isEqualTo("token audience is not accepted");
        assertThat(jwt.verifications()).isEqualTo(2);
    }

    @Test
    void aTokenNotValidYetIsNotRemembered_andPassesWhenItsTimeComes() throws Exception {
        JwtClaims later = hour(9);
        later.setNotBefore(NumericDate.fromSeconds(clock.now.plusSeconds(60).getEpochSecond()));
        String token = idp.sign("k1", "k1", later);
        assertThat(refusal(token)).isEqualTo("token not yet valid (may pass later)");
        assertThat(jwt.remembers(token)).isFalse();
        clock.now = clock.now.plusSeconds(61);
        assertThat(refusal(token)).isEqualTo("accepted as 9");
    }

    @Test
    void aTokenOfAKeyNotPublishedYetIsNotRemembered_andPassesOnceTheKeyIs() throws Exception {
        String early = idp.token("k2", 10);
        assertThat(refusal(early)).isEqualTo("token signing key is not known (may pass later)");
        assertThat(jwt.remembers(early)).isFalse();
        idp.publish(jwks, "k1", "k2");
        await().atMost(Duration.ofSeconds(20)).until(() -> refusal(early).equals("accepted as 10"));
        assertThat(jwt.remembers(early)).as("verified now").isTrue();
    }

    @Test
    void aSignatureRefusalIsForgottenWhenTheKeysAreReadAgain() throws Exception {
        String forged = idp.sign("thief", "k1", hour(11));
        assertThat(refusal(forged)).isEqualTo("bad token signature");
        assertThat(refusal(forged)).isEqualTo("bad token signature");
        assertThat(jwt.verifications()).isEqualTo(1);
        clock.now = clock.now.plusSeconds(2); // past the JWKS refresh (1 s here): the provider may have fixed the key
        assertThat(jwt.remembers(forged)).isFalse();
        assertThat(refusal(forged)).isEqualTo("bad token signature");
        assertThat(jwt.verifications()).as("checked again, once").isEqualTo(2);
    }

    @Test
    void aLifetimeCountedFromNowIsNotRemembered_theTokenPassesOnceNowHasMovedOn() throws Exception {
        JwtClaims noIat = hour(12);
        noIat.unsetClaim("iat");
        noIat.setExpirationTime(NumericDate.fromSeconds(clock.now.getEpochSecond() + 86_401)); // a day and a second
        String token = idp.sign("k1", "k1", noIat);
        assertThat(refusal(token)).isEqualTo("token lifetime exceeds 86400 seconds (may pass later)");
        assertThat(jwt.remembers(token)).isFalse();
        clock.now = clock.now.plusSeconds(2);
        assertThat(refusal(token)).isEqualTo("accepted as 12");

        JwtClaims fromIat = claims(13, clock.now, clock.now.plusSeconds(86_401));
        String tooLong = idp.sign("k1", "k1", fromIat);
        assertThat(refusal(tooLong))
                .as("counted from its iat: for good")
                .isEqualTo("token lifetime exceeds 86400 seconds");
        assertThat(jwt.remembers(tooLong)).isTrue();
    }

    @Test
    void aTokenWithoutTypIsVerifiedLikeAnyOther() throws Exception {
        assertThat(refusal(idp.sign("k1", "k1", hour(14), null))).isEqualTo("accepted as 14");
        assertThat(refusal(idp.sign("k1", "k1", hour(15), "at+jwt"))).isEqualTo("accepted as 15");
        assertThat(refusal(idp.sign("k1", "k1", hour(16), "JOSE"))).isEqualTo("unsupported token type");
    }
}
