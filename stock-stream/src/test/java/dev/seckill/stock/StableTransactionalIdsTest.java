package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.InstanceIds;
import dev.seckill.kit.config.Settings;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A restarted stream instance uses the transactional ids its predecessor used (so the broker fences the
 * predecessor's open transaction at once), and a service started without an instance id gets a stable one.
 */
@Tag("fast")
class StableTransactionalIdsTest {
    @Test
    void theRandomProcessIdIsReplacedByTheInstanceId_theThreadIndexKept() {
        StableTransactionalIds ids = new StableTransactionalIds("seckill.stock-stream", "host-a-9402");
        String streams = "seckill.stock-stream-" + UUID.randomUUID() + "-2";
        assertThat(ids.stable(streams)).isEqualTo("seckill.stock-stream-host-a-9402-2");
        assertThat(ids.stable("seckill.stock-stream-" + UUID.randomUUID() + "-2"))
                .as("another start of the same instance: the same id")
                .isEqualTo(ids.stable(streams));
        assertThat(ids.stable("another-app-" + UUID.randomUUID() + "-1"))
                .as("not this app's")
                .startsWith("another-app-");
        assertThat(ids.stable(null)).isNull();
    }

    @Test
    void aServiceWithoutAnInstanceIdGetsHostAndMetricsPort_dynamicMeansNone_aGivenOneIsKept() {
        Settings none = Settings.with(Map.of(StockStreamSettings.METRICS_PORT.name(), "9412"));
        String given = InstanceIds.of(
                InstanceIds.withDefault(none, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT),
                StockStreamSettings.INSTANCE_ID);
        assertThat(given).endsWith("-9412").matches("[A-Za-z0-9._-]+");
        assertThat(InstanceIds.of(
                        InstanceIds.withDefault(
                                none, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT),
                        StockStreamSettings.INSTANCE_ID))
                .as("stable across starts")
                .isEqualTo(given);
        Settings anyPort = Settings.with(Map.of(StockStreamSettings.METRICS_PORT.name(), "0"));
        assertThat(InstanceIds.of(
                        InstanceIds.withDefault(
                                anyPort, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT),
                        StockStreamSettings.INSTANCE_ID))
                .as("two instances of one host on free ports would share <host>-0: no id")
                .isEmpty();
        Settings dynamic = Settings.with(Map.of(StockStreamSettings.INSTANCE_ID.name(), "dynamic"));
        assertThat(InstanceIds.of(
                        InstanceIds.withDefault(
                                dynamic, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT),
                        StockStreamSettings.INSTANCE_ID))
                .isEmpty();
        Settings pod = Settings.with(Map.of(StockStreamSettings.INSTANCE_ID.name(), "stock-stream-1"));
        assertThat(InstanceIds.of(
                        InstanceIds.withDefault(pod, StockStreamSettings.INSTANCE_ID, StockStreamSettings.METRICS_PORT),
                        StockStreamSettings.INSTANCE_ID))
                .isEqualTo("stock-stream-1");
    }
}
