package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The marker a goods' keys must carry by its fold ({@link KeyMarkers#truth}): none once the fold says the keys have
 * expired (by the fold's recorded expiry, or end + grace for a fold written before it was kept, within the clock slack
 * when Redis already let them go), the fold's own marker otherwise, {@code legacy} for a fold written before markers.
 * At a fixed clock, no Redis: the edges mutation testing found unchecked (docs/quality.md).
 */
@Tag("fast")
class KeyMarkersTest {
    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    static final Duration GRACE = Duration.ofDays(1);
    final KeyMarkers markers =
            new KeyMarkers(new TransactionalFolds(), new KeyLifetime(GRACE, Clock.fixed(NOW, ZoneOffset.UTC)));

    static GoodsFold fold(String at, long opened, long endAt, long expireAt) {
        GoodsFold f = new GoodsFold();
        f.at = at;
        f.opened = opened;
        f.endAt = endAt;
        f.expireAt = expireAt;
        return f;
    }

    static long now(Duration plus) {
        return NOW.plus(plus).toEpochMilli();
    }

    @Test
    void givenNoFoldOrNoSale_thenTheKeysMustNotExist() {
        assertThat(markers.truth(null, null)).isEmpty();
        assertThat(markers.truth(fold("", 5, now(Duration.ofHours(1)), 0), null))
                .as("a fold whose keys were let go")
                .isEmpty();
        assertThat(markers.truth(fold(null, 0, now(Duration.ofHours(1)), 0), null))
                .as("never opened, no marker")
                .isEmpty();
    }

    @Test
    void givenALiveSale_thenTheKeysCarryTheFoldsMarker_orLegacyForAFoldWithoutOne() {
        long end = now(Duration.ofHours(1));
        assertThat(markers.truth(fold("42", 5, end, now(Duration.ofHours(25))), null))
                .isEqualTo("42");
        assertThat(markers.truth(fold(null, 5, end, now(Duration.ofHours(25))), null))
                .isEqualTo(KeyMarkers.LEGACY);
        assertThat(markers.truth(fold("42", 0, end, now(Duration.ofHours(25))), null))
                .as("a fold with a marker but no units opened (all sold and the stock moved back) still has keys")
                .isEqualTo("42");
    }

    @Test
    void givenKeysPastTheirRecordedExpiry_thenNone_evenWhenEndPlusGraceIsStillAhead() {
        assertThat(markers.truth(fold("42", 5, now(Duration.ofHours(-1)), now(Duration.ofMillis(-1))), null))
                .isEmpty();
        assertThat(markers.truth(fold("42", 5, now(Duration.ofHours(-1)), now(Duration.ZERO)), null))
                .as("expiring now: gone")
                .isEmpty();
    }

    @Test
    void givenAFoldWithoutARecordedExpiry_thenTheKeysLiveUntilEndPlusGrace() {
        GoodsFold live = fold("42", 5, now(Duration.ofHours(-1)), 0);
        GoodsFold gone = fold("42", 5, now(GRACE.negated().minusMillis(1)), 0);

        assertThat(markers.keysEnd(live)).isEqualTo(now(Duration.ofHours(23)));
        assertThat(markers.truth(live, null)).isEqualTo("42");
        assertThat(markers.truth(gone, null)).isEmpty();
    }

    @Test
    void givenRedisAlreadyLetTheKeysGo_thenTheFoldAgreesWithinTheClockSlack_andNotBeyondIt() {
        long withinSlack = now(KeyMarkers.CLOCK_SLACK.minusSeconds(1));
        long beyondSlack = now(KeyMarkers.CLOCK_SLACK.plusSeconds(1));

        assertThat(markers.truth(fold("42", 5, now(Duration.ofHours(-1)), withinSlack), ""))
                .isEmpty();
        assertThat(markers.truth(fold("42", 5, now(Duration.ofHours(-1)), withinSlack), "41"))
                .as("Redis still has keys: not judged by the slack")
                .isEqualTo("42");
        assertThat(markers.truth(fold("42", 5, now(Duration.ofHours(-1)), beyondSlack), ""))
                .as("lost too early: rebuilt")
                .isEqualTo("42");
    }
}
