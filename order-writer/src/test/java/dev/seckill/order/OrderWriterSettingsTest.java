package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The payment grace's default: room for a provider that publishes an on-time payment late, bounded by the timeout. */
@Tag("fast")
class OrderWriterSettingsTest {
    static long grace(Map<String, String> set) {
        return OrderWriterSettings.from(Settings.with(set)).paymentGraceMs();
    }

    @Test
    void thePaymentGraceDefaultsToATenthOfTheTimeout_atMostAMinute_andCanBeSet() {
        assertThat(grace(Map.of()))
                .as("with the 15 min timeout (before: 0, an on-time payment published 1 ms late was refused)")
                .isEqualTo(60_000);
        assertThat(grace(Map.of(OrderWriterSettings.PAYMENT_TIMEOUT_MS.name(), "2000")))
                .isEqualTo(200);
        assertThat(grace(Map.of(OrderWriterSettings.PAYMENT_GRACE_MS.name(), "0")))
                .isZero();
        assertThat(OrderWriterSettings.PAYMENT_GRACE_MS.documentedDefault())
                .isEqualTo("a tenth of the payment timeout, at most 60000");
    }
}
