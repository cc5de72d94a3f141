package dev.seckill.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Verification with the verified-token cache: a cached token still expires, a tampered one never rides on it. */
class JwtTest {
    static final String SECRET = "a-secret-of-at-least-thirty-two-characters";

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    @Test void aCachedTokenIsRefusedOnceItExpires() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        String token = jwt.mint(42, clock.now.plusSeconds(60));
        assertThat(jwt.verify(token)).isEqualTo(42);
        assertThat(jwt.verify(token)).as("again, from the cache").isEqualTo(42);
        clock.now = clock.now.plusSeconds(61);
        assertThatThrownBy(() -> jwt.verify(token)).isInstanceOf(Jwt.Refused.class).hasMessage("token expired");
    }

    @Test void aTamperedTokenIsRefusedEvenAfterTheGenuineOneWasVerified() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock);
        String token = jwt.mint(42, clock.now.plusSeconds(60));
        assertThat(jwt.verify(token)).isEqualTo(42);
        String[] parts = token.split("\\.");
        String otherUser = jwt.mint(43, clock.now.plusSeconds(60)).split("\\.")[1];
        String tampered = parts[0] + "." + otherUser + "." + parts[2];
        assertThatThrownBy(() -> jwt.verify(tampered)).isInstanceOf(Jwt.Refused.class).hasMessage("bad token signature");
        String forged = new Jwt("another-secret-that-is-long-enough-1234", clock).mint(42, clock.now.plusSeconds(60));
        assertThatThrownBy(() -> jwt.verify(forged)).isInstanceOf(Jwt.Refused.class).hasMessage("bad token signature");
    }

    @Test void theCacheStaysBounded() throws Exception {
        MovableClock clock = new MovableClock();
        Jwt jwt = new Jwt(SECRET, clock, 100);
        for (int u = 1; u <= 250; u++) assertThat(jwt.verify(jwt.mint(u, clock.now.plusSeconds(60)))).isEqualTo(u);
        assertThat(jwt.cachedTokens()).isBetween(1, 100);
    }
}
