package dev.seckill.infra.bench.decide;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.CommandPartitions;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.infra.harness.PreloadProducer;
import dev.seckill.infra.harness.Sales;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stock.StockStreamApp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@code bench hot} preloads: the open of one goods in N buckets and n purchases by n buyers. Sent as a client
 * keyed by the goods sends them ({@link Route#HOME}: the home reads every purchase and sends it to its claim), or as
 * the gateway sends them once the ledger said how the sale is split ({@link Route#CLAIM}: each purchase straight to the
 * partition that claims its requestId; {@link Route#OWN}: with ids the gateway would issue, each claimed in its buyer's
 * bucket) — for which the open is decided first, by a stream started and stopped here.
 */
final class HotPreload {
    /** How the purchases reach the stream. */
    enum Route {
        /** Keyed by the goods: its home reads every purchase and sends it to the bucket that claims it. */
        HOME,
        /** Straight to the partition that claims each client-chosen id: one hop for those the buyer's bucket does not. */
        CLAIM,
        /** Ids made as the gateway makes its own, each claimed where its buyer buys: straight there, no hop. */
        OWN
    }

    static final long GOODS = 7_001;

    private HotPreload() {}

    static void preload(Settings s, Topics topics, int n, int buckets, Route route) throws Exception {
        OpenSale started = Sales.started(GOODS, n + n / 10L, Duration.ofHours(2), 1, "hot-open");
        OpenSale open = new OpenSale(
                GOODS,
                started.stock(),
                started.startAt(),
                started.endAt(),
                1,
                started.opId(),
                false,
                started.fairness(),
                0,
                buckets);
        boolean straight = route != Route.HOME && buckets > 1;
        try (KafkaProducer<String, byte[]> p = PreloadProducer.create(s)) {
            p.send(new ProducerRecord<>(topics.commands(), open.key(), CommandCodec.encode(open)))
                    .get();
            if (straight) awaitOpened(s, topics, buckets);
            int partitions = p.partitionsFor(topics.commands()).size();
            Instant now = Instant.now();
            for (int i = 0; i < n; i++) {
                String client = "h" + i;
                int[] drawn = {0};
                String id = route == Route.OWN
                        ? CommandPartitions.idClaimedByBuyer(GOODS, 1 + i, buckets, () -> client + "-" + drawn[0]++)
                        : client;
                Purchase c = new Purchase(id, GOODS, 1 + i, 1, now);
                Integer to =
                        straight ? CommandPartitions.claimPartition(GOODS, c.requestId(), buckets, partitions) : null;
                p.send(new ProducerRecord<>(topics.commands(), to, c.key(), CommandCodec.encode(c)));
            }
            p.flush();
        }
    }

    /** Runs a stream until every bucket's share of the open is in the ledger, as a gateway would wait to learn it. */
    private static void awaitOpened(Settings s, Topics topics, int buckets) {
        try (StockStreamApp app = new StockStreamApp(s, new SimpleMeterRegistry()).start();
                KafkaConsumer<String, byte[]> ledger = KafkaClients.consumer(
                        s,
                        Map.of(
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                "read_committed",
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                false))) {
            List<TopicPartition> parts = new ArrayList<>();
            ledger.partitionsFor(topics.ledger())
                    .forEach(p -> parts.add(new TopicPartition(topics.ledger(), p.partition())));
            ledger.assign(parts);
            ledger.seekToBeginning(parts);
            int opened = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (opened < buckets) {
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException("the open's " + buckets
                            + " shares were not in the ledger within 2 minutes (" + opened + ")");
                for (ConsumerRecord<String, byte[]> r : ledger.poll(Duration.ofMillis(100))) {
                    LedgerEntry e = Json.read(r.value(), LedgerEntry.class);
                    if (e.goodsId() == GOODS && e.type() == LedgerType.OPENED) opened++;
                }
            }
        }
    }
}
