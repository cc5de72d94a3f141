package dev.seckill.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Verification with the verified-token cache: a cached token still expires, a tampered one never rides on it. */
@Tag("fast")
class JwtTest {
    static final String SECRET = "a-secret-of-at-least-thirty-two-characters";

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aCachedTokenIsRefusedOnceItExpires() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        String token = jwt.mint(42, clock.now.plusSeconds(60));
        assertThat(jwt.verify(token)).isEqualTo(42);
        assertThat(jwt.verify(token)).as("again, from the cache").isEqualTo(42);
        clock.now = clock.now.plusSeconds(64);
        assertThat(jwt.verify(token)).as("4 s past exp: within the 5 s leeway").isEqualTo(42);
        clock.now = clock.now.plusSeconds(1);
        assertThatThrownBy(() -> jwt.verify(token))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token expired");
    }

    @Test
    void aTamperedTokenIsRefusedEvenAfterTheGenuineOneWasVerified() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        String token = jwt.mint(42, clock.now.plusSeconds(60));
        assertThat(jwt.verify(token)).isEqualTo(42);
        String[] parts = token.split("\\.");
        String otherUser = jwt.mint(43, clock.now.plusSeconds(60)).split("\\.")[1];
        String tampered = parts[0] + "." + otherUser + "." + parts[2];
        assertThatThrownBy(() -> jwt.verify(tampered))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("bad token signature");
        String forged = new Jwt("another-secret-that-is-long-enough-1234", clock).mint(42, clock.now.plusSeconds(60));
        assertThatThrownBy(() -> jwt.verify(forged))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("bad token signature");
    }

    @Test
    void theCacheStaysBounded() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock, 100);
        for (int u = 1; u <= 250; u++)
            assertThat(jwt.verify(jwt.mint(u, clock.now.plusSeconds(60)))).isEqualTo(u);
        assertThat(jwt.cachedTokens()).isBetween(1, 100);
        String last = jwt.mint(250, clock.now.plusSeconds(60));
        assertThat(jwt.verify(last)).isEqualTo(250);
        assertThat(jwt.cachedTokens())
                .as("full, it makes room entry by entry: never emptied whole")
                .isGreaterThan(50);
    }

    static long at(MovableClock clock, long plusSeconds) {
        return clock.now.getEpochSecond() + plusSeconds;
    }

    @Test
    void aNonNumericNbfIsRefused_notReadAsZero() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        for (String nbf : new String[] {"\"soon\"", "\"0\"", "true", "{}"}) {
            String token = jwt.mint("{\"sub\":\"42\",\"exp\":" + at(clock, 60) + ",\"nbf\":" + nbf + "}");
            assertThatThrownBy(() -> jwt.verify(token))
                    .as("nbf " + nbf)
                    .isInstanceOf(Jwt.Refused.class)
                    .hasMessage("malformed token claims");
        }
        String nullNbf = jwt.mint("{\"sub\":\"42\",\"exp\":" + at(clock, 60) + ",\"nbf\":null}");
        assertThatThrownBy(() -> jwt.verify(nullNbf))
                .as("an explicit null is not read as no nbf")
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token nbf is not a number of seconds");
        String later = jwt.mint("{\"sub\":\"42\",\"exp\":" + at(clock, 600) + ",\"nbf\":" + at(clock, 300) + "}");
        assertThatThrownBy(() -> jwt.verify(later))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token not yet valid");
        clock.now = clock.now.plusSeconds(300);
        assertThat(jwt.verify(later)).as("a numeric nbf still works").isEqualTo(42);
        String textExp = jwt.mint("{\"sub\":\"42\",\"exp\":\"" + at(clock, 60) + "\"}");
        assertThatThrownBy(() -> jwt.verify(textExp))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("malformed token claims");
        String noExp = jwt.mint("{\"sub\":\"42\",\"exp\":null}");
        assertThatThrownBy(() -> jwt.verify(noExp))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token has no expiry");
        String fraction = jwt.mint("{\"sub\":\"42\",\"exp\":" + at(clock, 60) + ".5}");
        assertThat(jwt.verify(fraction))
                .as("RFC 7519 NumericDate may have a fraction")
                .isEqualTo(42);
    }

    @Test
    void aTokenLivingLongerThanTheMaximumIsRefused_byDefaultADay() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        assertThatThrownBy(() -> jwt.verify(jwt.mint(42, clock.now.plusSeconds(86_401))))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token lifetime exceeds 86400 seconds");
        assertThat(jwt.verify(jwt.mint(42, clock.now.plusSeconds(86_400)))).isEqualTo(42);
        String tenYears =
                jwt.mint("{\"sub\":\"42\",\"iat\":" + at(clock, -60) + ",\"exp\":" + at(clock, 315_360_000) + "}");
        assertThatThrownBy(() -> jwt.verify(tenYears))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessageContaining("token lifetime exceeds");
        String issuedInTheFuture = jwt.mint(
                "{\"sub\":\"42\",\"iat\":" + at(clock, 31_536_000) + ",\"exp\":" + at(clock, 31_539_600) + "}");
        assertThatThrownBy(() -> jwt.verify(issuedInTheFuture))
                .as("an iat in the future does not stretch the window")
                .isInstanceOf(Jwt.Refused.class)
                .hasMessageContaining("token lifetime exceeds");
        String issuedEarlier =
                jwt.mint("{\"sub\":\"42\",\"iat\":" + at(clock, -3600) + ",\"exp\":" + at(clock, 3600) + "}");
        assertThat(jwt.verify(issuedEarlier)).isEqualTo(42);
        Jwt hourly = new Jwt(SECRET, clock, new Jwt.Policy(null, null, Duration.ofHours(1)));
        assertThatThrownBy(() -> hourly.verify(issuedEarlier))
                .as("exp - iat = 2 h > 1 h")
                .isInstanceOf(Jwt.Refused.class);
    }

    @Test
    void issuerAndAudienceAreCheckedWhenConfigured() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt strict = new Jwt(
                SECRET, clock, new Jwt.Policy("https://id.example", "seckill-gateway", Jwt.DEFAULT_MAX_LIFETIME));
        long exp = at(clock, 60);
        assertThat(strict.verify(strict.mint(42, clock.now.plusSeconds(60))))
                .as("its own minted tokens carry both")
                .isEqualTo(42);
        assertThat(strict.verify(strict.mint("{\"sub\":\"43\",\"exp\":" + exp
                        + ",\"iss\":\"https://id.example\",\"aud\":[\"other\",\"seckill-gateway\"]}")))
                .as("aud as an array")
                .isEqualTo(43);
        assertThatThrownBy(() ->
                        strict.verify(strict.mint("{\"sub\":\"42\",\"exp\":" + exp + ",\"aud\":\"seckill-gateway\"}")))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token issuer is not accepted");
        assertThatThrownBy(() -> strict.verify(strict.mint("{\"sub\":\"42\",\"exp\":" + exp
                        + ",\"iss\":\"https://evil.example\",\"aud\":\"seckill-gateway\"}")))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token issuer is not accepted");
        assertThatThrownBy(() -> strict.verify(
                        strict.mint("{\"sub\":\"42\",\"exp\":" + exp + ",\"iss\":\"https://id.example\"}")))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token audience is not accepted");
        assertThatThrownBy(() -> strict.verify(strict.mint(
                        "{\"sub\":\"42\",\"exp\":" + exp + ",\"iss\":\"https://id.example\",\"aud\":[\"payments\"]}")))
                .isInstanceOf(Jwt.Refused.class)
                .hasMessage("token audience is not accepted");
        Jwt lax = new Jwt(SECRET, clock);
        assertThat(lax.verify(lax.mint("{\"sub\":\"42\",\"exp\":" + exp + ",\"iss\":\"anyone\"}")))
                .as("not configured: not checked")
                .isEqualTo(42);
    }
}
