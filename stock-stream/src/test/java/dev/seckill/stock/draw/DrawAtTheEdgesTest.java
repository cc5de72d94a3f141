package dev.seckill.stock.draw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stock.draw.beacon.BeaconChain;
import dev.seckill.stock.draw.beacon.DrandRelays;
import dev.seckill.stock.draw.beacon.Fetch;
import dev.seckill.stock.draw.beacon.LocalBeacon;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The draw against the parties at its edges: a producer whose clock runs ahead, and whoever holds every secret of the
 * deployment (docs/invariants.md, "The draw").
 */
class DrawAtTheEdgesTest {
    static final long GOODS = 8801;

    @Test
    void givenAProducerWhoseClockRunsTenMinutesAhead_thenTheCommandsTopicKeepsTheBrokersTime() throws Exception {
        Topics topics = new Topics("edge-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        TopicProvisioner.ensure(KafkaFixture.settings(), topics, 1);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap(), "acks", "all"),
                        new StringSerializer(),
                        new ByteArraySerializer());
                KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                        Map.of("bootstrap.servers", KafkaFixture.bootstrap()),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
            long before = System.currentTimeMillis();
            long ahead = before + Duration.ofMinutes(10).toMillis();
            Purchase p = new Purchase("r-ahead", GOODS, 1, 1, Instant.ofEpochMilli(ahead));
            RecordMetadata meta = producer.send(
                            new ProducerRecord<>(topics.commands(), 0, ahead, p.key(), CommandCodec.encode(p)))
                    .get(30, TimeUnit.SECONDS);
            long after = System.currentTimeMillis();
            assertThat(meta.timestamp()).as("the ack's time is the broker's").isBetween(before - 5_000, after + 5_000);
            TopicPartition tp = new TopicPartition(topics.commands(), 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                return !read.isEmpty();
            });
            assertThat(read.get(0).timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
            assertThat(read.get(0).timestamp())
                    .as("a record's time, which closes a drawn window, is not the producer's clock")
                    .isBetween(before - 5_000, after + 5_000);
        } finally {
            try (Admin admin = KafkaClients.admin(KafkaFixture.settings())) {
                admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aPartyHoldingEverySecretCannotRankTheBuyersBeforeTheCutoff_itsBestRankingIsNotTheDraws(@TempDir Path dir)
            throws Exception {
        try (LocalBeacon beacon = LocalBeacon.start(dir.resolve("beacon.key"), 0);
                DrandRelays relays = new DrandRelays(beacon.chain(), List.of(beacon.url()))) {
            BeaconChain chain = beacon.chain();
            // thirty buyers' entries frozen at the cutoff: their digest is public to whoever reads the commands topic
            List<byte[]> leaves = new ArrayList<>();
            List<Long> buyers = new ArrayList<>();
            for (long u = 1; u <= 30; u++) {
                buyers.add(u);
                leaves.add(EntryTree.leaf(CommandCodec.encode(new Purchase("r-" + u, GOODS, u, 1, Instant.now()))));
            }
            byte[] digest = EntryTree.root(leaves);
            long cutoff = System.currentTimeMillis();
            long round = chain.firstRoundAfter(cutoff);

            // at the cutoff the round does not exist: the beacon refuses it to everyone, the operator included
            assertThat(relays.round(round)).isInstanceOf(Fetch.NotYet.class);
            // the best the party can do: every input it holds, and the newest round there is
            long newest = chain.roundAt(cutoff);
            byte[] guess = Draw.seed(GOODS, digest, beacon.sign(newest).randomness());
            List<Long> predicted = Draw.order(guess, GOODS, buyers);

            Fetch published = await().atMost(Duration.ofSeconds(30))
                    .until(() -> relays.round(round), f -> f instanceof Fetch.Ready);
            byte[] seed =
                    Draw.seed(GOODS, digest, ((Fetch.Ready) published).round().randomness());
            List<Long> drawn = Draw.order(seed, GOODS, buyers);
            assertThat(predicted)
                    .as("the ranking the party could make at the cutoff")
                    .isNotEqualTo(drawn);
            assertThat(predicted.subList(0, 5)).as("not even the five winners").isNotEqualTo(drawn.subList(0, 5));
        }
    }
}
