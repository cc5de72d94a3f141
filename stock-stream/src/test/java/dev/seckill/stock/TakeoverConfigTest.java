package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The consumer settings a takeover's first second rests on (docs/reliability.md, "A failover, phase by phase"): a task
 * taken over restores its changelogs' tail, and then fetches its partition, without waiting out Kafka's 500 ms fetch
 * wait at either step.
 */
@Tag("fast")
class TakeoverConfigTest {
    @Test
    void neitherTheRestoreNorTheFirstFetchOfATakenOverPartitionWaitsOutAFetchParkedAtTheBroker() {
        Properties p = StockStreamApp.streamsConfig(Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, "127.0.0.1:9")));

        assertThat(p.get(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)))
                .isEqualTo(20);
        assertThat(p.get(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)))
                .isEqualTo(50);
    }
}
