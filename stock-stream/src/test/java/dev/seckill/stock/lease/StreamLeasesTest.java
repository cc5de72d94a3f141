package dev.seckill.stock.lease;

import static dev.seckill.stock.support.KafkaGroups.admin;
import static dev.seckill.stock.support.KafkaGroups.openTransaction;
import static dev.seckill.stock.support.KafkaGroups.staticMember;
import static dev.seckill.stock.support.KafkaGroups.staticMembers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seckill.stock.decision.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Given a peer that held its lease, is a static member of the stream's group ({@code <instance>-1}, its session a
 * minute long) and has a transaction open under {@code <application>-<instance>-1}, when its lease lapses (it stopped
 * renewing: dead, or frozen), then this instance's watch removes it from the group and fences its transaction within a
 * second or two — not after its session, not after the transaction's timeout; while the peer renews, nothing happens.
 */
class StreamLeasesTest {
    @Test
    void aPeerWhoseLeaseLapsesIsRemovedFromTheGroupAndFenced_soonerThanItsSession() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (LeaseGroup group = new LeaseGroup()) {
            TestRedis redis = group.redis;
            Admin admin = group.admin;
            String app = group.app;
            String topic = group.topic;
            String prefix = group.prefix;
            redis.redis.set(prefix + "peer", "1", SetParams.setParams().px(60_000)); // the peer holds its lease
            try (KafkaConsumer<String, String> peer = staticMember(app, "peer-1", topic);
                    KafkaProducer<String, String> open = openTransaction(app + "-peer-1", topic);
                    StreamLeases leases = leases(redis, app, prefix, metrics)) {
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> staticMembers(admin, app).contains("peer-1"));
                assertThat(redis.redis.exists(prefix + "self"))
                        .as("this instance's own lease")
                        .isTrue();

                redis.redis.del(prefix + "peer"); // it stopped renewing: the lease is gone
                long lapsed = System.nanoTime();
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !staticMembers(admin, app).contains("peer-1"));
                long removedMs = (System.nanoTime() - lapsed) / 1_000_000;
                assertThat(removedMs)
                        .as("removed within a few watches, not after its session (60 s)")
                        .isLessThan(5_000);
                // the fencing follows the removal on the Admin client's thread: its counter says when it is done
                await().atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> metrics.counter("seckill_stream_peer_transactions_fenced")
                                        .count()
                                == 1);
                assertThatThrownBy(open::commitTransaction)
                        .as("its open transaction was fenced with it")
                        .isInstanceOf(KafkaException.class);
            }
            assertThat(redis.redis.exists(prefix + "self"))
                    .as("a graceful close ends the lease")
                    .isFalse();
        }
    }

    @Test
    void whenRedisForgetsEveryLease_aPeerThatRenewsWithinTwoLeasesIsNotRemoved() throws Exception {
        try (LeaseGroup group = new LeaseGroup()) {
            TestRedis redis = group.redis;
            Admin admin = group.admin;
            String app = group.app;
            String topic = group.topic;
            String prefix = group.prefix;
            redis.redis.set(prefix + "peer", "1", SetParams.setParams().px(60_000));
            try (KafkaConsumer<String, String> peer = staticMember(app, "peer-1", topic);
                    StreamLeases leases = leases(redis, app, prefix, new SimpleMeterRegistry())) {
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> redis.redis.exists(prefix + "epoch")
                                && staticMembers(admin, app).contains("peer-1"));
                assertThat(redis.redis.pttl(prefix + "epoch"))
                        .as("the epoch outlives the last stream watching it by a minute, not for ever")
                        .isBetween(1L, 60_000L);
                // Redis restarted empty: the epoch and every lease gone at once; the peer reconnects 500 ms later
                redis.redis.del(prefix + "epoch", prefix + "peer", prefix + "self");
                await().pollDelay(Duration.ofMillis(500))
                        .atMost(Duration.ofSeconds(1))
                        .until(() -> true);
                redis.redis.set(prefix + "peer", "1", SetParams.setParams().px(60_000));
                await().during(Duration.ofSeconds(2))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> staticMembers(admin, app).contains("peer-1"));
            }
        }
    }

    @Test
    void aPeerWhoseLeaseConnectionClosesIsRemovedAndFencedAtOnce_itsLeaseStillAMinuteToRun() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (LeaseGroup group = new LeaseGroup()) {
            TestRedis redis = group.redis;
            Admin admin = group.admin;
            String app = group.app;
            String topic = group.topic;
            String prefix = group.prefix;
            Jedis peerConnection = named(prefix + "peer");
            // as a peer renews: over its named connection, the lease naming that connection's client id
            peerConnection.set(
                    prefix + "peer",
                    "1/" + peerConnection.clientId(),
                    SetParams.setParams().px(60_000));
            try (KafkaConsumer<String, String> peer = staticMember(app, "peer-1", topic);
                    KafkaProducer<String, String> open = openTransaction(app + "-peer-1", topic);
                    StreamLeases leases = leases(redis, app, prefix, metrics, StreamLeasesTest::named)) {
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> staticMembers(admin, app).contains("peer-1"));

                peerConnection.close(); // its process ended: the kernel closed its sockets
                long closed = System.nanoTime();
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> !staticMembers(admin, app).contains("peer-1"));
                long removedMs = (System.nanoTime() - closed) / 1_000_000;
                assertThat(removedMs)
                        .as("removed within a watch or two, its lease held for another minute")
                        .isLessThan(2_000);
                assertThat(redis.redis.exists(prefix + "peer")).isTrue();
                // the lease it left is the one it last renewed: no restart of it, its transaction fenced too
                await().atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> metrics.counter("seckill_stream_peer_transactions_fenced")
                                        .count()
                                == 1);
                assertThatThrownBy(open::commitTransaction)
                        .as("its open transaction was fenced with it")
                        .isInstanceOf(KafkaException.class);
            } finally {
                peerConnection.close();
            }
        }
    }

    @Test
    void whenEveryConnectionDropsAtOnce_aPeerThatReconnectsIsNotRemoved() throws Exception {
        try (LeaseGroup group = new LeaseGroup()) {
            TestRedis redis = group.redis;
            Admin admin = group.admin;
            String app = group.app;
            String topic = group.topic;
            String prefix = group.prefix;
            Jedis peerConnection = named(prefix + "peer");
            peerConnection.set(
                    prefix + "peer",
                    "1/" + peerConnection.clientId(),
                    SetParams.setParams().px(60_000));
            try (KafkaConsumer<String, String> peer = staticMember(app, "peer-1", topic);
                    StreamLeases leases =
                            leases(redis, app, prefix, new SimpleMeterRegistry(), StreamLeasesTest::named)) {
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> staticMembers(admin, app).contains("peer-1"));
                // as a Redis restart does (this test's connections only, not the machine's other clients): this
                // instance's two and the peer's closed in one step; the peer reconnects and renews 300 ms later
                try (Jedis killer = named(prefix + "killer")) {
                    List<String> ids = killer.clientList(ClientType.NORMAL)
                            .lines()
                            .filter(l -> l.contains(" name=" + prefix + "peer ")
                                    || l.contains(" name=" + prefix + "self ")
                                    || l.contains(" name=" + prefix + "self/watch "))
                            .map(l -> l.substring(3, l.indexOf(' ')))
                            .toList();
                    assertThat(ids).hasSize(3);
                    Transaction both = killer.multi();
                    ids.forEach(id -> both.sendCommand(Protocol.Command.CLIENT, "KILL", "ID", id));
                    both.exec();
                }
                await().pollDelay(Duration.ofMillis(300))
                        .atMost(Duration.ofSeconds(1))
                        .until(() -> true);
                peerConnection = named(prefix + "peer");
                peerConnection.set(
                        prefix + "peer",
                        "2/" + peerConnection.clientId(),
                        SetParams.setParams().px(60_000));
                await().during(Duration.ofSeconds(2))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> staticMembers(admin, app).contains("peer-1"));
            } finally {
                peerConnection.close();
            }
        }
    }

    /**
     * A group of the test's own ({@code lease-<random>}, its one-partition topic {@code <group>.out}), the test's Redis
     * namespace with the group's lease prefix, and an Admin client; closed: the peer's static member removed if it is
     * still there (a static member does not leave as it closes), the topic and the group deleted, the keys removed.
     */
    private static final class LeaseGroup implements AutoCloseable {
        final String app = "lease-" + UUID.randomUUID().toString().substring(0, 8);
        final String topic = app + ".out";
        final TestRedis redis = new TestRedis();
        final Admin admin = admin();
        final String prefix = redis.keys.prefix() + "stream:lease:" + app + ":";

        LeaseGroup() throws Exception {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            try {
                if (staticMembers(admin, app).contains("peer-1"))
                    admin.removeMembersFromConsumerGroup(
                                    app,
                                    new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove("peer-1"))))
                            .all()
                            .get(30, TimeUnit.SECONDS);
                admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                admin.deleteConsumerGroups(List.of(app)).all().get(30, TimeUnit.SECONDS);
            } finally {
                admin.close();
                redis.close();
            }
        }
    }

    /** A connection to the test's Redis under {@code name}, as a stream instance's lease connection is. */
    private static Jedis named(String name) {
        URI url = URI.create(System.getenv().getOrDefault("SECKILL_REDIS_URL", "redis://127.0.0.1:6379"));
        DefaultJedisClientConfig.Builder config =
                DefaultJedisClientConfig.builder().clientName(name).database(JedisURIHelper.getDBIndex(url));
        if (JedisURIHelper.getPassword(url) != null)
            config.user(JedisURIHelper.getUser(url)).password(JedisURIHelper.getPassword(url));
        return new Jedis(JedisURIHelper.getHostAndPort(url), config.build());
    }

    /** This instance's leases over the group {@code app}: a 400 ms lease renewed every 100 ms. */
    private static StreamLeases leases(TestRedis redis, String app, String prefix, SimpleMeterRegistry metrics) {
        return leases(redis, app, prefix, metrics, null);
    }

    private static StreamLeases leases(
            TestRedis redis, String app, String prefix, SimpleMeterRegistry metrics, Function<String, Jedis> connect) {
        return new StreamLeases(
                        redis.redis,
                        admin(),
                        app,
                        "self",
                        prefix,
                        Duration.ofMillis(400),
                        Duration.ofMillis(100),
                        metrics,
                        connect)
                .start();
    }
}
