package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * A full batch's outputs are forwarded while Redis decides the next batch (DecideProcessor): every decision still
 * reaches its topic, in input order, and what a commit writes holds every drained batch — the fold's changelog ends
 * at the stock the outcomes say.
 */
class OverlappedBatchesTest {
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);

    @Test
    void givenBatchesOfTwo_whenNineBuyersArrive_thenEveryOutcomeAndEntryIsForwardedInOrder() {
        Topics topics = new Topics("obt.");
        try (TestRedis redis = new TestRedis()) {
            try (TopologyTestDriver driver = EosTopologyDriver.start(
                    "obt",
                    topics,
                    redis,
                    StockTopology.Settings.UNBATCHED.batched(
                            2, Duration.ofHours(1)))) { // full batches and commits only
                TestInputTopic<String, byte[]> commands =
                        driver.createInputTopic(topics.commands(), new StringSerializer(), new ByteArraySerializer());
                var changelog = driver.createOutputTopic(
                        "obt-" + StockTopology.FOLD_STORE + "-changelog",
                        new LongDeserializer(),
                        StockTopology.FOLD_SERDE.deserializer());
                var success = driver.createOutputTopic(
                        topics.success(), new StringDeserializer(), StockTopology.OUTCOME_SERDE.deserializer());
                var ledger = driver.createOutputTopic(
                        topics.ledger(), new StringDeserializer(), StockTopology.LEDGER_SERDE.deserializer());
                long goods = 5601;
                commands.pipeInput(
                        "5601",
                        CommandCodec.encode(new OpenSale(goods, 20, START, START.plusSeconds(3600), 1, "open", false)));
                for (int u = 1; u <= 9; u++)
                    commands.pipeInput(
                            "5601", CommandCodec.encode(new Purchase("p" + u, goods, u, 1, START.plusSeconds(5))));

                assertThat(success.readValuesToList())
                        .extracting(Outcome::requestId)
                        .containsExactlyElementsOf(IntStream.rangeClosed(1, 9)
                                .mapToObj(u -> "p" + u)
                                .toList());
                assertThat(ledger.readValuesToList())
                        .extracting(LedgerEntry::stockAfter)
                        .containsExactly(20L, 19L, 18L, 17L, 16L, 15L, 14L, 13L, 12L, 11L);
                List<KeyValue<Long, GoodsFold>> folds = changelog.readKeyValuesToList();
                assertThat(folds.get(folds.size() - 1).value.stock).isEqualTo(11);
            }
        }
    }
}
