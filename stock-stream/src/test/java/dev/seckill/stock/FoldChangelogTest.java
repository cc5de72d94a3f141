package dev.seckill.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.stock.decision.TestRedis;
import dev.seckill.stock.ledger.GoodsFold;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * Found in review: with the fold store cached, a commit flushed the fold before the decision buffer's
 * commit hook drained the batch, so the fold's changelog missed decisions whose outcomes and holdings were committed;
 * a crash then restored a fold with too many units left, and the first rebuild from it oversold. With a state-store
 * cache on (TopologyTestDriver's default, 10 MB), what a commit writes must include everything its drain decided.
 */
class FoldChangelogTest {
    static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);

    @Test
    void givenABatchDrainedOnlyByTheCommit_whenItCommits_thenTheFoldChangelogHoldsItsDecisions() {
        Topics topics = new Topics("fcl.");
        try (TestRedis redis = new TestRedis()) {
            try (TopologyTestDriver driver = EosTopologyDriver.start(
                    "fcl",
                    topics,
                    redis,
                    StockTopology.Settings.UNBATCHED.batched(
                            64, Duration.ofHours(1)))) { // only the commit's hook drains
                TestInputTopic<String, byte[]> commands =
                        driver.createInputTopic(topics.commands(), new StringSerializer(), new ByteArraySerializer());
                var changelog = driver.createOutputTopic(
                        "fcl-" + StockTopology.FOLD_STORE + "-changelog",
                        new LongDeserializer(),
                        StockTopology.FOLD_SERDE.deserializer());
                var holdings = driver.createOutputTopic(
                        "fcl-" + StockTopology.HOLDINGS_STORE + "-changelog",
                        new StringDeserializer(),
                        StockTopology.HOLDING_SERDE.deserializer());
                var success = driver.createOutputTopic(
                        topics.success(), new StringDeserializer(), StockTopology.OUTCOME_SERDE.deserializer());
                long goods = 5501;
                commands.pipeInput(
                        "5501",
                        CommandCodec.encode(new OpenSale(goods, 5, START, START.plusSeconds(3600), 1, "open", false)));
                commands.pipeInput("5501", CommandCodec.encode(new Purchase("p1", goods, 1, 1, START.plusSeconds(5))));
                commands.pipeInput("5501", CommandCodec.encode(new Purchase("p2", goods, 2, 1, START.plusSeconds(5))));
                for (int k = 0; k < 3; k++) commands.pipeInput("9999", new byte[] {'x'}); // more commits

                assertThat(success.readValuesToList()).hasSize(2);
                assertThat(holdings.readKeyValuesToList()).hasSize(2);
                List<KeyValue<Long, GoodsFold>> folds = changelog.readKeyValuesToList();
                assertThat(folds).as("the fold's changelog has its records").isNotEmpty();
                assertThat(folds.get(folds.size() - 1).value.stock)
                        .as("committed with the two SUCCESS and their holdings: 5 - 2")
                        .isEqualTo(3);
            }
        }
    }
}
