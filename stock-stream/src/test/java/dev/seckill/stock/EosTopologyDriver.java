package dev.seckill.stock;

import dev.seckill.contracts.Topics;
import dev.seckill.stock.decision.StockScripts;
import dev.seckill.stock.decision.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The stock topology under TopologyTestDriver with exactly_once_v2, deciding against {@code redis}: its state stores'
 * changelogs are readable as {@code <applicationId>-<store>-changelog}.
 */
final class EosTopologyDriver {
    private EosTopologyDriver() {}

    static TopologyTestDriver start(
            String applicationId, Topics topics, TestRedis redis, StockTopology.Settings settings) {
        StreamsBuilder builder = new StreamsBuilder();
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        StockTopology.build(
                builder,
                topics,
                () -> new StockScripts(redis.redis, redis.keys, metrics, 3, Duration.ofMillis(10)),
                Clock.systemUTC(),
                metrics,
                settings);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        return new TopologyTestDriver(builder.build(), props);
    }
}
