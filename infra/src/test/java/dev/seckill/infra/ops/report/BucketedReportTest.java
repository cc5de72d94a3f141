package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The report of a goods split into buckets: its stock over time is the goods' (every bucket's units left and those in
 * transit), it is sold out when its last unit anywhere is, and each bucket is shown with what its entries moved.
 */
@Tag("fast")
class BucketedReportTest {
    static final Instant T = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    static final long G = 1001;

    @Test
    void aGoodsOfTwoBucketsIsSoldOutWhenBothAreAndShowsEach() throws Exception {
        // Given a goods of 4 units in 2 buckets (partitions 3 and 4): bucket 1 sells its 2, borrows 1 from bucket 0
        // (in transit for a while), sells it; bucket 0 sells its last
        List<LedgerEntry> ledger = List.of(
                entry("open@b0", LedgerType.OPENED, 2, 2, 0, 0, null, null),
                entry("open@b1", LedgerType.OPENED, 2, 2, 1, 1, null, null),
                entry("deduct:1001:a", LedgerType.DEDUCTED, 1, 1, 1, 2, 11L, "a"),
                entry("deduct:1001:b", LedgerType.DEDUCTED, 1, 0, 1, 3, 12L, "b"),
                entry("borrow:1001:1:9:out", LedgerType.TRANSFERRED_OUT, 1, 1, 0, 4, null, null),
                entry("borrow:1001:1:9:in", LedgerType.TRANSFERRED_IN, 1, 1, 1, 5, null, null),
                entry("deduct:1001:c", LedgerType.DEDUCTED, 1, 0, 1, 6, 13L, "c"),
                entry("deduct:1001:d", LedgerType.DEDUCTED, 1, 0, 0, 7, 14L, "d"));
        List<Outcome> outcomes = List.of(
                success("a", 11, 1, 2, 4),
                success("b", 12, 0, 3, 4), // bucket 1 empty, the goods not
                success("c", 13, 0, 6, 4),
                success("d", 14, 0, 7, 3));
        // When the report is made
        GoodsReport r = GoodsReport.of(G, outcomes, ledger, Map.of());
        // Then the goods' stock counts the unit in transit, and it sold out with "d", not with "b" (bucket 1 empty)
        assertThat(r.stockOverTime().stream().map(GoodsReport.StockPoint::stock))
                .containsExactly(2L, 4L, 3L, 2L, 2L, 2L, 1L, 0L);
        assertThat(r.soldOutAt()).isEqualTo(T.plusMillis(7));
        // and each bucket shows its partition and what moved
        assertThat(r.buckets())
                .containsExactly(
                        new GoodsReport.Bucket(0, 3, 2, 1, 0, 0, 1, 0), new GoodsReport.Bucket(1, 4, 2, 3, 0, 1, 0, 0));
        assertThat(TextReport.render(List.of(r)))
                .contains("bucket 0   partition 3: opened 2, sold 1, released 0, moved in 0 / out 1, left 0")
                .contains("bucket 1   partition 4: opened 2, sold 3, released 0, moved in 1 / out 0, left 0");
        JsonNode doc = Json.MAPPER.readTree(JsonReport.render("ns.", List.of(r)));
        assertThat(doc.path("goods")
                        .get(0)
                        .path("buckets")
                        .get(1)
                        .path("movedIn")
                        .asLong())
                .isEqualTo(1);
    }

    @Test
    void aGoodsThatWasNeverASaleIsSaidToBeNone_aSaleIsNot() {
        // Given a goods never opened whose purchases were all REJECTED no_sale (the demo's JIT warm-up), and a sale
        Outcome refused = Outcome.of("w-1", 9_999, 1, 1, OutcomeKind.REJECTED, "no_sale", 0, T, T.plusMillis(1), 0, 1);
        GoodsReport warmup = GoodsReport.of(9_999, List.of(refused), List.of(), Map.of());
        GoodsReport sale = GoodsReport.of(
                G,
                List.of(success("a", 11, 1, 2, 4)),
                List.of(entry("open@b0", LedgerType.OPENED, 2, 2, 0, 0, null, null)),
                Map.of());
        // Then the report says the first was not a sale, and says nothing of the kind of the second
        assertThat(warmup.noSale()).isTrue();
        assertThat(TextReport.render(List.of(warmup))).contains("goods 9999: 1 requests decided — not a sale");
        assertThat(sale.noSale()).isFalse();
        assertThat(TextReport.render(List.of(sale))).doesNotContain("not a sale");
    }

    @Test
    void theLedgersOrderNotTheInstancesClocksSaysWhereUnitsAre() {
        // Given a transfer whose TRANSFERRED_IN an instance stamped 2 ms before the other stamped its OUT (their clocks
        // differ), the entries in the ledger's order
        List<LedgerEntry> ledger = List.of(
                entry("open@b0", LedgerType.OPENED, 2, 2, 0, 0, null, null),
                entry("open@b1", LedgerType.OPENED, 2, 2, 1, 1, null, null),
                entry("deduct:1001:a", LedgerType.DEDUCTED, 1, 1, 1, 2, 11L, "a"),
                entry("deduct:1001:b", LedgerType.DEDUCTED, 1, 0, 1, 3, 12L, "b"),
                entry("borrow:1001:1:9:out", LedgerType.TRANSFERRED_OUT, 1, 1, 0, 6, null, null),
                entry("borrow:1001:1:9:in", LedgerType.TRANSFERRED_IN, 1, 1, 1, 4, null, null),
                entry("deduct:1001:c", LedgerType.DEDUCTED, 1, 0, 1, 7, 13L, "c"),
                entry("deduct:1001:d", LedgerType.DEDUCTED, 1, 0, 0, 8, 14L, "d"));
        // When the report is made
        GoodsReport r = GoodsReport.of(G, List.of(), ledger, Map.of());
        // Then the unit is not left "in transit" for ever: the goods ends at 0, sold out with "d"
        assertThat(r.stockOverTime().get(r.stockOverTime().size() - 1).stock()).isZero();
        assertThat(r.soldOutAt()).isEqualTo(T.plusMillis(8));
    }

    @Test
    void theLastPointIsWhereTheGoodsIsNow_evenWhenABucketStampedItsLastSaleEarlier() {
        // Given two buckets' threads whose clocks differ: bucket 0's last sale is in the ledger after bucket 1's, but
        // stamped 3 ms before it
        List<LedgerEntry> ledger = List.of(
                entry("open@b0", LedgerType.OPENED, 1, 1, 0, 0, null, null),
                entry("open@b1", LedgerType.OPENED, 1, 1, 1, 1, null, null),
                entry("deduct:1001:a", LedgerType.DEDUCTED, 1, 0, 1, 5, 11L, "a"),
                entry("deduct:1001:b", LedgerType.DEDUCTED, 1, 0, 0, 2, 12L, "b"));
        // When the report is made
        GoodsReport r = GoodsReport.of(G, List.of(), ledger, Map.of());
        // Then the chart ends sold out, its times never going back
        assertThat(r.stockOverTime().stream().map(GoodsReport.StockPoint::stock))
                .containsExactly(1L, 2L, 1L, 0L);
        assertThat(r.stockOverTime().stream().map(GoodsReport.StockPoint::at))
                .isSorted()
                .last()
                .isEqualTo(T.plusMillis(5));
    }

    private static LedgerEntry entry(
            String opId, LedgerType type, long q, long after, int bucket, int ms, Long user, String request) {
        LedgerEntry e = LedgerEntry.of(opId, G, type, q, user, request, null, after, T.plusMillis(ms));
        BucketOf where = BucketOf.of(bucket, 2, 3 + bucket);
        if (type == LedgerType.TRANSFERRED_OUT) where = where.withPeer(1);
        if (type == LedgerType.TRANSFERRED_IN) where = where.withPeer(0);
        return e.inBucket(where);
    }

    private static Outcome success(String id, long user, long after, int ms, int partition) {
        return Outcome.of(id, G, user, 1, OutcomeKind.SUCCESS, null, after, T, T.plusMillis(ms), partition, ms);
    }
}
