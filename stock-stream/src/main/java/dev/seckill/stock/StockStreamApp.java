package dev.seckill.stock;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.observability.ServiceMain;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.redis.RedisConnections;
import dev.seckill.contracts.redis.KeyLifetime;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.stock.decision.StockScripts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The stock-stream service: the Kafka Streams app (exactly_once_v2) that decides every command.
 * When Redis stays down past the retries, the stream thread fails, its transaction aborts and the thread is
 * replaced: the task resumes from its last committed offset once Redis answers again.
 */
public final class StockStreamApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StockStreamApp.class);

    private final Settings settings;
    private final MeterRegistry metrics;
    private UnifiedJedis redis;
    private KafkaStreams streams;
    private KafkaStreamsMetrics streamsMetrics;

    public StockStreamApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    public static Properties streamsConfig(Settings settings) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, dev.seckill.contracts.GroupIds.stockStream(settings));
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.getInt("stream.threads", 2));
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, settings.getInt("stream.commit.interval.ms", 100));
        // how long the stream thread blocks in poll when no command arrives; punctuations (the batch linger) and the
        // commit wait for it, so on a quiet stream it was added to a purchase's time to answer (Kafka's default 100;
        // 10 here: docs/decisions.md, "Time to answer")
        p.put(StreamsConfig.POLL_MS_CONFIG, settings.getLong("stream.poll.ms", 10));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        try {
            p.put(StreamsConfig.STATE_DIR_CONFIG, settings.get("stream.state.dir",
                    Files.createTempDirectory("seckill-stock-stream-").toString()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), settings.getInt("stream.session.timeout.ms", 45_000));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                Math.max(500, settings.getInt("stream.session.timeout.ms", 45_000) / 6));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), settings.getInt("stream.transaction.timeout.ms", 10_000));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), settings.getInt("stream.max.poll.records", 1000));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        return p;
    }

    public StockStreamApp start() {
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        redis = RedisConnections.open(settings);
        Topics topics = new Topics(settings.topicPrefix());
        TopicProvisioner.ensure(settings.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        StockScripts scripts = new StockScripts(redis, new RedisKeys(settings.redisPrefix()), metrics,
                settings.getInt("stream.redis.attempts", 6), Duration.ofMillis(50), KeyLifetime.from(settings));
        StreamsBuilder builder = new StreamsBuilder();
        StockTopology.build(builder, topics, () -> scripts, Clock.systemUTC(), metrics, settings.getInt("stream.batch.size", 256),
                Duration.ofMillis(settings.getLong("stream.batch.linger.ms", 5)), settings.getBoolean("stream.short.circuit", true),
                Duration.ofMillis(settings.getLong("stream.caught.up.commit.ms", 20)),
                Duration.ofMillis(settings.getLong("stream.commit.interval.ms", 100)));
        streams = new KafkaStreams(builder.build(), streamsConfig(settings));
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed, replacing it (its transaction is aborted, nothing half-done is committed): {}",
                    e.getMessage());
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(metrics);
        streams.start();
        LOG.info("stock-stream started: commands {} (prefix {}), Redis keys {}", topics.commands(), topics.prefix(),
                settings.redisPrefix());
        return this;
    }

    public KafkaStreams.State state() { return streams.state(); }

    /** Blocks until the app has partitions assigned and is RUNNING. */
    public void awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("stock-stream not RUNNING: " + streams.state());
            try {
                Thread.sleep(50); // polling the Streams state machine
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override public void close() {
        if (streams != null) streams.close(Duration.ofSeconds(30));
        if (streamsMetrics != null) streamsMetrics.close();
        if (redis != null) redis.close();
    }

    public static void main(String[] args) throws Exception {
        ServiceMain.run("stock-stream", "stream.metrics.port", 9402, (settings, registry) -> {
            StockStreamApp app = new StockStreamApp(settings, registry).start();
            app.awaitRunning(Duration.ofMinutes(5));
            return app;
        });
    }
}
