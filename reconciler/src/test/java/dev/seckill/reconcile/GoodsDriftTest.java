package dev.seckill.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The verdict on one goods from the sources side by side (the sources themselves are read over the real stack in infra). */
@Tag("fast")
class GoodsDriftTest {
    /** A goods that opened 10, sold 4, released 1: 7 left, 3 live buyers holding one unit each. */
    static GoodsDrift drift(Long redisStock, Long redisBuyers, boolean keysRetired, long paidReleased) {
        return new GoodsDrift(1, 10, 4, 1, 7, 3, 3, redisStock, redisBuyers, 7L, 3L, 3L, 7L, keysRetired, paidReleased);
    }

    @Test
    void everySourceAgreeing_isOk() {
        assertThat(drift(7L, 3L, false, 0).verdict()).isEqualTo("OK");
    }

    @Test
    void noRedisKeysBeforeTheirLifetimeEnds_isDrift_afterItIsTheSalesEnd() {
        assertThat(drift(null, null, false, 0).verdict()).isEqualTo("DRIFT redis");
        assertThat(drift(null, null, true, 0).verdict()).isEqualTo("ENDED");
        assertThat(drift(5L, 3L, true, 0).verdict())
                .as("keys there again (re-created): compared as usual")
                .isEqualTo("DRIFT redis");
    }

    @Test
    void aReleaseOfAPaidOrderIsReportedAboveDrift() {
        assertThat(drift(7L, 3L, false, 1).verdict()).isEqualTo("PAID_RELEASED");
    }
}
