package dev.seckill.gateway.door;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Given what the ledger said of a goods' buckets, when the gateway sends its purchases, then a split goods' purchase
 * goes to the partition that claims its requestId — the bucket a hash of (goods, requestId) picks, counted from the
 * partition Kafka's default partitioner gives the goods' key — and anything else by its key.
 */
class SaleBucketsTest {
    private static final int PARTITIONS = 8;

    @Test
    void aSplitGoodsPurchaseGoesToTheBucketThatClaimsItsRequestId() {
        SaleBuckets buckets = new SaleBuckets();
        buckets.partitions(PARTITIONS);
        buckets.split(77, 4);
        int home = murmur("77", PARTITIONS);
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String id = "req-" + i;
            int claim = murmur("77:" + id, 4);
            assertThat(buckets.partitionOf(77, id)).isEqualTo((home + claim) % PARTITIONS);
            used.add(buckets.partitionOf(77, id));
        }
        assertThat(used).as("the claims spread over the 4 buckets").hasSize(4);
        assertThat(buckets.bucketsOf(77)).isEqualTo(4);
    }

    @Test
    void aGoodsNotSplitOrNotKnownGoesByItsKey() {
        SaleBuckets buckets = new SaleBuckets();
        buckets.split(77, 4);
        assertThat(buckets.partitionOf(77, "r"))
                .as("the partition count not known yet")
                .isNull();
        buckets.partitions(PARTITIONS);
        assertThat(buckets.partitionOf(78, "r"))
                .as("a goods the ledger said nothing of")
                .isNull();
        buckets.split(77, 1);
        assertThat(buckets.partitionOf(77, "r"))
                .as("a later sale of one bucket")
                .isNull();
        assertThat(buckets.splitCount()).isZero();
        buckets.split(79, 16);
        assertThat(buckets.partitionOf(79, "r"))
                .as("more buckets than partitions: not a sale the stream opens")
                .isNull();
    }

    private static int murmur(String key, int n) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % n;
    }

    @Test
    void anIdTheGatewayIssuesLandsInTheBuyersOwnBucket() {
        // Given a goods the ledger said is split into 4 buckets
        SaleBuckets buckets = new SaleBuckets();
        buckets.partitions(PARTITIONS);
        buckets.split(77, 4);
        int home = murmur("77", PARTITIONS);
        int[] counter = {0};
        for (long user = 1; user <= 300; user++) {
            // When the gateway issues an id for a buyer's purchase
            String id = buckets.issue(77, user, () -> "g-" + counter[0]++);
            // Then the purchase is sent to the partition of the bucket the buyer buys from: claimed and decided there
            int buyers = murmur(Long.toString(user), 4);
            assertThat(buckets.partitionOf(77, id)).as("user %d", user).isEqualTo((home + buyers) % PARTITIONS);
        }
        // and a goods not split takes the first id drawn
        int before = counter[0];
        assertThat(buckets.issue(78, 1, () -> "g-" + counter[0]++)).isEqualTo("g-" + before);
    }

    @Test
    void aSaleThatClaimsByAnotherLayoutIsRoutedAndDrawnForByIt() {
        SaleBuckets buckets = new SaleBuckets();
        buckets.partitions(PARTITIONS);
        int home = murmur("77", PARTITIONS);
        // Given an OPENED entry of 4 buckets that claims at home (a drawn sale, or an earlier one-bucket sale's layout)
        buckets.opened(77, 4, 1);
        // Then every purchase goes to the home, and an id is not drawn in vain
        for (int i = 0; i < 50; i++)
            assertThat(buckets.partitionOf(77, "r-" + i)).isEqualTo(home);
        int[] drawn = {0};
        long away = 1;
        while (murmur(Long.toString(away), 4) == 0) away++;
        buckets.issue(77, away, () -> "g-" + drawn[0]++);
        assertThat(drawn[0]).as("draws for a buyer no claim bucket serves").isEqualTo(1);
        // and an entry that is not an open keeps the layout its open said
        buckets.split(77, 4);
        assertThat(buckets.partitionOf(77, "r-x")).isEqualTo(home);
        // Given a sale of 2 buckets that claims over an earlier sale's 4
        buckets.opened(78, 2, 4);
        int home78 = murmur("78", PARTITIONS);
        int[] next = {0};
        for (long user = 1; user <= 100; user++) {
            String id = buckets.issue(78, user, () -> "g-" + next[0]++);
            int claim = murmur("78:" + id, 4);
            // Then the purchase goes where 4 buckets claim it, which is its buyer's bucket of the 2
            assertThat(buckets.partitionOf(78, id)).isEqualTo((home78 + claim) % PARTITIONS);
            assertThat(claim).as("user %d", user).isEqualTo(murmur(Long.toString(user), 2));
        }
    }
}
