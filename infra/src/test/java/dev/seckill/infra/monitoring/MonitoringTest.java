package dev.seckill.infra.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.infra.drill.Namespace;
import dev.seckill.infra.drill.Namespaces;
import dev.seckill.infra.drill.Pipeline;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.stack.KafkaFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MonitoringTest {
    @Test void dump() throws Exception {
        Settings settings = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap(), "gateway.port", "0", "topic.partitions", "2"));
        Namespace ns = Namespace.create(settings, "mon-" + UUID.randomUUID().toString().substring(0, 6));
        try (Pipeline p = new Pipeline(ns).start()) {
            p.openSale(5301, 2, Duration.ofHours(1), 1);
            for (int u = 1; u <= 4; u++) p.send(new Purchase("m-" + u, 5301, u, 1, Instant.now()));
            p.send(new Release(5301, 1, 1, null, "m-1", "cancelled", "m-rel"));
            try (var redis = RedisConnections.open(ns.settings()); var db = Database.open(ns.settings(), "mon");
                 var producer = ReliableProducers.create(ns.settings().kafkaBootstrap());
                 Reconciler r = new Reconciler(ns.settings(), db, redis, producer, p.metrics(), true)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> { r.cycle(null); return p.metrics().scrape().contains("seckill_reconcile_drift"); });
            }
            Files.writeString(Path.of("target/metrics-sample.txt"), p.metrics().scrape());
        } finally {
            new Namespaces(settings).clean(ns.name());
        }
        assertThat(Path.of("target/metrics-sample.txt")).exists();
    }
}
