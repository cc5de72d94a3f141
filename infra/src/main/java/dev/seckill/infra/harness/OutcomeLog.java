package dev.seckill.infra.harness;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;

/** Follows the four outcome topics from the beginning (read_committed), as an analyst would, and keeps every outcome. */
public final class OutcomeLog implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<Outcome> outcomes = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    public OutcomeLog(Settings settings, Topics topics) {
        consumer = KafkaClients.consumer(
                settings,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5000));
        TopicProvisioner.assignAll(consumer, topics.outcomes(), false);
        thread = new Thread(this::run, "outcome-log");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    Outcome o = Json.read(r.value(), Outcome.class);
                    synchronized (outcomes) {
                        outcomes.add(o);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    public List<Outcome> snapshot() {
        synchronized (outcomes) {
            return List.copyOf(outcomes);
        }
    }

    public int size() {
        synchronized (outcomes) {
            return outcomes.size();
        }
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
    }
}
