package dev.seckill.stock.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class BucketPlanTest {
    @Test
    void bucketZeroIsWhereKafkaPutsTheGoodsKey_andTheBucketsAreDistinctPartitions() {
        for (long goods = 1; goods <= 500; goods++) {
            BucketPlan plan = new BucketPlan(goods, 12, 12);
            int kafka = BuiltInPartitioner.partitionForKey(
                    new StringSerializer().serialize("c", Long.toString(goods)), 12); // the producer's own choice
            assertThat(plan.partitionOf(0)).isEqualTo(kafka);
            Set<Integer> partitions = new HashSet<>();
            for (int b = 0; b < 12; b++) partitions.add(plan.partitionOf(b));
            assertThat(partitions).hasSize(12);
        }
    }

    @Test
    void buyersSpreadOverTheBuckets_eachAlwaysTheSame() {
        BucketPlan plan = new BucketPlan(1001, 4, 12);
        int[] count = new int[4];
        LongStream.rangeClosed(1, 40_000).forEach(u -> count[plan.bucketOf(u)]++);
        for (int c : count) assertThat(c).isBetween(9_000, 11_000);
        assertThat(plan.bucketOf(77)).isEqualTo(plan.bucketOf(77));
        assertThat(new BucketPlan(1001, 1, 12).bucketOf(77)).isZero();
    }

    @Test
    void sharesSplitTheStockEvenly_theRemainderToTheFirstBuckets() {
        assertThat(new BucketPlan(1, 4, 12).shares(10)).containsExactly(3, 3, 2, 2);
        assertThat(new BucketPlan(1, 3, 12).shares(2)).containsExactly(1, 1, 0);
        assertThat(new BucketPlan(1, 1, 12).shares(7)).containsExactly(7);
    }

    @Test
    void moreBucketsThanPartitions_orNone_isRefusedWithTheLimit() {
        assertThatThrownBy(() -> new BucketPlan(1, 13, 12)).hasMessageContaining("buckets must be 1..12");
        assertThatThrownBy(() -> new BucketPlan(1, 0, 12)).hasMessageContaining("buckets must be 1..12");
        assertThatThrownBy(() -> new BucketPlan(1, 65, 100)).hasMessageContaining("buckets must be 1..64");
    }
}
