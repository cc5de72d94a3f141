package dev.seckill.contracts.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("fast")
class CommandPartitionsTest {
    private static final long GOODS = 7_001;

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void anIdMadeForABuyerIsClaimedInTheBucketTheBuyerBuysFrom(int buckets) {
        // Given 2,000 buyers of a goods in N buckets, When the producer makes each an id
        Set<String> ids = new HashSet<>();
        for (long user = 1; user <= 2_000; user++) {
            String id = CommandPartitions.idClaimedByBuyer(
                    GOODS, user, buckets, () -> UUID.randomUUID().toString());
            ids.add(id);
            // Then its claim is where the buyer buys: the claim partition is the buyer's bucket's partition
            assertThat(CommandPartitions.claimBucket(GOODS, id, buckets))
                    .as("user %d", user)
                    .isEqualTo(CommandPartitions.bucketOf(user, buckets));
            assertThat(CommandPartitions.claimPartition(GOODS, id, buckets, 16))
                    .isEqualTo(CommandPartitions.bucketPartition(GOODS, CommandPartitions.bucketOf(user, buckets), 16));
        }
        assertThat(ids).hasSize(2_000);
    }

    @Test
    void aGoodsNotSplitTakesTheFirstIdDrawn() {
        AtomicInteger drawn = new AtomicInteger();
        String id = CommandPartitions.idClaimedByBuyer(GOODS, 42, 1, () -> "id-" + drawn.incrementAndGet());
        assertThat(id).isEqualTo("id-1");
        assertThat(drawn).hasValue(1);
    }

    @Test
    void aSourceThatNeverGivesTheBuyersBucketIsAskedABoundedNumberOfTimes() {
        // Given a source that always gives the same id, claimed away from the buyer's bucket
        int buckets = 4;
        long user = 42;
        int mine = CommandPartitions.bucketOf(user, buckets);
        String elsewhere = "x";
        for (int i = 0; CommandPartitions.claimBucket(GOODS, elsewhere, buckets) == mine; i++) elsewhere = "x" + i;
        String stuck = elsewhere;
        AtomicInteger drawn = new AtomicInteger();
        // When an id is made for the buyer
        String id = CommandPartitions.idClaimedByBuyer(GOODS, user, buckets, () -> {
            drawn.incrementAndGet();
            return stuck;
        });
        // Then the search stops at its bound and gives the last id (a hop, never a wrong decision)
        assertThat(id).isEqualTo(stuck);
        assertThat(drawn).hasValue(CommandPartitions.TRIES_PER_BUCKET * buckets);
    }

    @Test
    void aSaleThatKeepsAnotherLayoutIsDrawnForByIt() {
        // Given a sale of 2 buckets that keeps an earlier sale's layout over 4, and a drawn one that claims at home
        for (long user = 1; user <= 500; user++) {
            int mine = CommandPartitions.bucketOf(user, 2);
            String id = CommandPartitions.idClaimedByBuyer(
                    GOODS, user, 2, 4, () -> UUID.randomUUID().toString());
            // Then the id is claimed, in the layout the sale claims by, in the buyer's bucket
            assertThat(CommandPartitions.claimBucket(GOODS, id, 4))
                    .as("user %d", user)
                    .isEqualTo(mine);
        }
        AtomicInteger drawn = new AtomicInteger();
        long away = 1;
        while (CommandPartitions.bucketOf(away, 4) == 0) away++;
        // and a buyer whose bucket claims nothing in the layout (all at home) gets the first id: no draw would help
        assertThat(CommandPartitions.idClaimedByBuyer(GOODS, away, 4, 1, () -> "id-" + drawn.incrementAndGet()))
                .isEqualTo("id-1");
        assertThat(drawn).hasValue(1);
    }
}
