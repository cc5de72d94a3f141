package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.TestTopics;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.support.CommandLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Invariant 6: the same command log, replayed from a fresh state under another topic and key prefix, decides the same
 * (the first run pipelines batches of commands to Redis and short-circuits sold-out goods in memory, the replay calls
 * the script once per command). The log holds upstream retries of decided ids: each must emit nothing.
 */
class ReplayDeterminismTest {

    static Settings settings(String topicPrefix, TestRedis redis) {
        return Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP,
                KafkaFixture.bootstrap(),
                Settings.TOPIC_PREFIX,
                topicPrefix,
                Settings.REDIS_PREFIX,
                redis.keys.prefix(),
                "stream.threads",
                "1"));
    }

    /** Every outcome equal but for decidedAt (partition/offset are equal too: the copy keeps partitions and order). */
    static void assertSameDecisions(Map<String, Outcome> first, Map<String, Outcome> second, int purchases) {
        assertThat(first).hasSize(purchases);
        assertThat(second.keySet()).isEqualTo(first.keySet());
        for (String id : first.keySet()) {
            assertThat(second.get(id).withoutRunFields())
                    .as(id)
                    .isEqualTo(first.get(id).withoutRunFields());
        }
        assertThat(first.values().stream()
                        .map(o -> o.outcome().name() + "/" + o.reason())
                        .distinct()
                        .count())
                .as("the log exercises several outcomes and reasons")
                .isGreaterThanOrEqualTo(5);
    }

    /** A drill namespace's: its commands topic keeps the recorded (CreateTime) times of what is copied into it. */
    static Settings drillSettings() {
        return KafkaFixture.settings().and(Map.of(SharedSettings.COMMANDS_TIMESTAMPS.name(), "CreateTime"));
    }

    @Test
    void theSameCommandLogFromAFreshStateGivesTheSameOutcomes() {
        Topics a = new Topics("replay-a-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        Topics b = new Topics("replay-b-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), a, 3);
        TopicProvisioner.ensure(drillSettings(), b, 3); // a drill's copy keeps the recorded times
        int purchases = CommandLog.write(KafkaFixture.bootstrap(), a, 7001, 3, 600, 6);
        Map<String, Outcome> first;
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (TestRedis ra = new TestRedis()) {
            first = CommandLog.decide(settings(a.prefix(), ra), purchases, metrics);
        }
        assertThat(metrics.get("seckill_short_circuit_hits").counter().count())
                .as("the first run answered purchases of sold-out goods in memory")
                .isGreaterThan(0);
        CommandLog.copy(KafkaFixture.bootstrap(), a, b);
        Map<String, Outcome> second;
        try (TestRedis rb = new TestRedis()) {
            // one command per Redis call and every purchase a Lua call this time: pipelined batches and the in-memory
            // sold-out short-circuit must decide exactly as the script, one command at a time
            second = CommandLog.decide(
                    settings(b.prefix(), rb).and(Map.of("stream.batch.size", "1", "stream.short.circuit", "false")),
                    purchases);
        }
        assertSameDecisions(first, second, purchases);
        TestTopics.deleteWithPrefix(KafkaFixture.bootstrap(), a.prefix());
        TestTopics.deleteWithPrefix(KafkaFixture.bootstrap(), b.prefix());
    }

    /**
     * A recording of a sale whose window ended days ago, decided again now (as a replay drill does), gets
     * the decisions the same log got when its sale was live, not {@code no_sale} for keys that expire on the spot.
     */
    @Test
    void aRecordingOfASaleThatEndedDaysAgoIsDecidedAsTheSameLogWasWhenItsSaleWasLive() {
        Topics live = new Topics("replay-live-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        Topics old = new Topics("replay-old-" + UUID.randomUUID().toString().substring(0, 6) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), live, 3);
        TopicProvisioner.ensure(drillSettings(), old, 3); // a recording written with its times, as a drill copies it
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        Duration age = Duration.ofDays(3);
        int purchases = CommandLog.write(KafkaFixture.bootstrap(), live, 7101, 3, 400, 17, start);
        CommandLog.write(KafkaFixture.bootstrap(), old, 7101, 3, 400, 17, start.minus(age));
        Map<String, Outcome> whenLive, daysLater;
        try (TestRedis r = new TestRedis()) {
            whenLive = CommandLog.decide(settings(live.prefix(), r), purchases);
        }
        try (TestRedis r = new TestRedis()) {
            daysLater = CommandLog.decide(settings(old.prefix(), r), purchases);
        }
        assertThat(daysLater.values())
                .as("decided by acceptedAt as recorded, not no_sale")
                .noneMatch(o -> "no_sale".equals(o.reason()));
        for (String id : whenLive.keySet()) {
            Outcome now = whenLive.get(id), then = daysLater.get(id);
            assertThat(then).as(id).isNotNull();
            assertThat(then.acceptedAt()).as(id).isEqualTo(now.acceptedAt().minus(age));
            assertThat(List.of(
                            then.outcome(),
                            String.valueOf(then.reason()),
                            then.stockAfter(),
                            then.userId(),
                            then.quantity()))
                    .as(id)
                    .isEqualTo(List.of(
                            now.outcome(),
                            String.valueOf(now.reason()),
                            now.stockAfter(),
                            now.userId(),
                            now.quantity()));
        }
        assertThat(daysLater.keySet())
                .as("the same requestIds decided, none more")
                .isEqualTo(whenLive.keySet());
        assertThat(whenLive).hasSize(purchases);
        assertThat(daysLater.values().stream()
                        .map(o -> o.outcome().name() + "/" + o.reason())
                        .distinct()
                        .count())
                .as("the log exercises several outcomes and reasons")
                .isGreaterThanOrEqualTo(5);
        TestTopics.deleteWithPrefix(KafkaFixture.bootstrap(), live.prefix());
        TestTopics.deleteWithPrefix(KafkaFixture.bootstrap(), old.prefix());
    }
}
