package dev.seckill.stock.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.bucket.BucketPlan;
import dev.seckill.stock.bucket.HopOut;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A goods split into buckets, decided by one real {@link Decider} per partition over a real Redis, the hops between
 * them appended to their partitions' logs ({@link BucketRing}), the partitions interleaved at random: the rules of
 * docs/invariants.md, "Stock buckets", against the goods as one pool.
 */
class BucketedGoodsTest extends TestRedisCase {
    private static final long GOODS = 4242;
    private static final int PARTITIONS = 6;

    @Test
    void everyUnitIsSoldBeforeAnyBuyerHearsSoldOutAndNoneTwice() {
        for (long seed = 1; seed <= 8; seed++) {
            int buckets = 2 + (int) (seed % 3);
            long stock = 40 + seed * 7;
            // Given a goods of `stock` units split into `buckets`, and more buyers than units, some sending twice
            // (a re-borrow time of 0 and of a minute; record times inherited and stamped at each append)
            BucketRing ring = new BucketRing(redis, PARTITIONS, 0, seed % 2 == 0 ? 0 : 60_000, seed, seed % 3 == 0);
            long t = System.currentTimeMillis();
            ring.send(open(stock, buckets, "open-" + seed), t);
            int buyers = (int) stock + 30;
            for (int u = 1; u <= buyers; u++) {
                ring.send(new Purchase("r-" + seed + "-" + u, GOODS, u, 1, start), t + u);
                if (u % 7 == 0) ring.send(new Purchase("r2-" + seed + "-" + u, GOODS, u, 1, start), t + u);
            }
            // When every partition decides its log, in random batches and order
            ring.drain(16, 200_000);
            // Then every unit is sold, to different buyers, each requestId answered once, and SOLD_OUT only once none
            // is
            // left anywhere
            assertTrue(ring.dlq.isEmpty(), () -> "no DLQ record, got " + ring.dlq);
            Map<String, Outcome> byRequest = answeredOnce(ring);
            Set<Long> holders = new HashSet<>();
            long sold = 0;
            for (Outcome o : byRequest.values()) {
                if (o.outcome() != OutcomeKind.SUCCESS) continue;
                sold += o.quantity();
                assertTrue(holders.add(o.userId()), "buyer " + o.userId() + " sold to twice");
            }
            assertEquals(stock, sold, "seed " + seed + ": every unit sold while buyers were turned away");
            Set<Long> toldSoldOut = new HashSet<>();
            for (Outcome o : byRequest.values()) {
                if (o.outcome() == OutcomeKind.SOLD_OUT) toldSoldOut.add(o.userId());
                else
                    assertTrue(
                            o.outcome() == OutcomeKind.SUCCESS || holders.contains(o.userId()),
                            () -> "a buyer without a unit is told SOLD_OUT, got " + o);
            }
            assertEquals(buyers - stock, toldSoldOut.size(), "seed " + seed + ": every buyer without a unit");
            assertTrue(toldSoldOut.stream().noneMatch(holders::contains), "a holder told SOLD_OUT");
            assertEquals(buyers + buyers / 7, byRequest.size(), "every requestId answered");
            assertLedgerFoldsToTheRing(ring, stock, buckets, sold);
        }
    }

    @Test
    void theBucketsOpenWithTheirSharesAndTheGoodsFoldsToItsStock() {
        // Given a goods opened with 4 buckets of 10 units
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 7);
        ring.send(open(10, 4, "open-shares"), System.currentTimeMillis());
        // When the open and its hops are decided
        ring.drain(4, 1_000);
        // Then each bucket's partition opened its share, under its share's opId, in its own partition's offsets
        BucketPlan plan = new BucketPlan(GOODS, 4, PARTITIONS);
        long[] shares = plan.shares(10);
        List<LedgerEntry> opens =
                ring.ledger.stream().filter(e -> e.type() == LedgerType.OPENED).toList();
        assertEquals(4, opens.size());
        for (LedgerEntry e : opens) {
            int b = e.bucketIndex();
            assertEquals(4, e.bucketCount());
            assertEquals(shares[b], e.quantity(), "bucket " + b + "'s share");
            assertEquals("open-shares@b" + b, e.opId());
            assertEquals((HopOut.home(Long.toString(GOODS), PARTITIONS) + b) % PARTITIONS, e.commandPartition(-1));
            assertEquals(shares[b], ring.fold(e.commandPartition(-1), GOODS).stock);
        }
        assertEquals(10, opens.stream().mapToLong(LedgerEntry::stockDelta).sum());
    }

    @Test
    void aRequestIdKeepsOneMeaningAcrossBuckets() {
        // Given a goods of 4 buckets, and two buyers whose buckets differ
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 3);
        long t = System.currentTimeMillis();
        ring.send(open(100, 4, "open-ids"), t);
        BucketPlan plan = new BucketPlan(GOODS, 4, PARTITIONS);
        long first = 1;
        long other = 2;
        while (plan.bucketOf(other) == plan.bucketOf(first) || plan.bucketOf(first) == 0) {
            first++;
            other = first + 1;
        }
        // When one requestId is sent for the first buyer, again (a retry), then for the other buyer
        ring.send(new Purchase("shared-id", GOODS, first, 1, start), t + 1);
        ring.send(new Purchase("shared-id", GOODS, first, 1, start), t + 2);
        ring.send(new Purchase("shared-id", GOODS, other, 1, start), t + 3);
        ring.drain(3, 10_000);
        // Then the first is sold once, and the reuse is refused at the claim, naming the field
        List<Outcome> answers = ring.outcomes.stream()
                .filter(o -> o.requestId().equals("shared-id"))
                .toList();
        assertEquals(2, answers.size(), () -> "one SUCCESS and one refusal: " + answers);
        assertEquals(
                1,
                answers.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS).count());
        Outcome refused = answers.stream()
                .filter(o -> o.outcome() == OutcomeKind.REJECTED)
                .findFirst()
                .orElseThrow();
        assertEquals(other, refused.userId());
        assertTrue(refused.detail().contains("userId"), refused.detail());
    }

    @Test
    void aReleaseGoesBackToTheBuyersBucketAndIsSoldAgain() {
        // Given a goods of 3 buckets and 3 units, all sold
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 0, 11);
        long t = System.currentTimeMillis();
        ring.send(open(3, 3, "open-release"), t);
        for (int u = 1; u <= 3; u++) ring.send(new Purchase("buy-" + u, GOODS, u, 1, start), t + u);
        ring.drain(4, 10_000);
        assertEquals(
                3,
                ring.outcomes.stream()
                        .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                        .count());
        // When buyer 2's purchase is released, and a new buyer comes
        ring.send(new Release(GOODS, 2, 1, null, "buy-2", "payment_timeout", "rel-2"), t + 10);
        ring.send(new Purchase("buy-9", GOODS, 9, 1, start), t + 11);
        ring.drain(4, 10_000);
        // Then the unit released is sold to the new buyer, wherever its bucket is
        Outcome late = ring.outcomes.stream()
                .filter(o -> o.requestId().equals("buy-9"))
                .findFirst()
                .orElseThrow();
        assertEquals(OutcomeKind.SUCCESS, late.outcome(), () -> "the released unit is sold: " + ring.outcomes);
        LedgerEntry released = ring.ledger.stream()
                .filter(e -> e.type() == LedgerType.RELEASED)
                .findFirst()
                .orElseThrow();
        assertEquals(new BucketPlan(GOODS, 3, PARTITIONS).bucketOf(2), released.bucketIndex());
        assertLedgerFoldsToTheRing(ring, 3, 3, 3);
    }

    @Test
    void twoBucketsShortOfOnePurchaseEachDoNotPassTheirUnitsToAndFro() {
        // Given 2 units in 2 buckets, one each, and a limit of 2
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 5);
        long t = System.currentTimeMillis();
        ring.send(
                new OpenSale(
                        GOODS,
                        2,
                        start,
                        start.plusSeconds(3600),
                        2,
                        "open-2x2",
                        false,
                        dev.seckill.contracts.fair.Fairness.FCFS,
                        0,
                        2),
                t);
        BucketPlan plan = new BucketPlan(GOODS, 2, PARTITIONS);
        long a = 1;
        while (plan.bucketOf(a) != 0) a++;
        long b = 1;
        while (plan.bucketOf(b) != 1) b++;
        // When a buyer of each bucket asks for 2 at once (bucket 1's first, so that it waits for a borrow of its own
        // when bucket 0's borrow reaches it)
        ring.send(new Purchase("two-b", GOODS, b, 2, start), t + 1);
        ring.send(new Purchase("two-a", GOODS, a, 2, start), t + 1);
        ring.drainInTurn(2_000);
        // Then both are answered (a bucket waiting for its own borrow gives nothing away), and no unit moved twice
        assertEquals(2, ring.outcomes.size(), () -> "both answered: " + ring.outcomes);
        assertLedgerFoldsToTheRing(
                ring,
                2,
                2,
                ring.outcomes.stream()
                        .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                        .mapToLong(Outcome::quantity)
                        .sum());
    }

    @Test
    void noClientOpIdCanStandInForTheStreamsOwnBorrowsOrTransfers() throws Exception {
        // Given a sale of 3 buckets whose buyers outnumber its units, so that its buckets borrow
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 9);
        long t = System.currentTimeMillis();
        ring.send(open(30, 3, "open-ids-ops"), t);
        for (int u = 1; u <= 45; u++) ring.send(new Purchase("ops-" + u, GOODS, u, 1, start), t + u);
        ring.drain(8, 200_000);
        // Then every borrow's opId, and its transfer's, is one no client may send (the bucket keeps them beside the
        // clients' opIds: a client's release under a borrow's opId would make the borrow a retry)
        List<String> borrows = new java.util.ArrayList<>();
        for (var e : ring.sent)
            if (e.getValue().kind() == dev.seckill.stock.bucket.Hop.Kind.BORROW)
                borrows.add(dev.seckill.contracts.Json.MAPPER
                        .readTree(e.getValue().value())
                        .path("opId")
                        .asText());
        assertFalse(borrows.isEmpty(), "the sale borrowed");
        for (String opId : borrows)
            for (String id : new String[] {opId, opId + ":in", opId + ":out"})
                assertFalse(dev.seckill.contracts.command.CommandRules.validOpId(id), id + " is a client's opId");
        assertLedgerFoldsToTheRing(ring, 30, 3, 30);
    }

    @Test
    void aHopCopiedToAnotherPartitionIsRefusedWithoutTouchingRedis() {
        // Given a sale of 3 buckets that moved units between them
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 13);
        long t = System.currentTimeMillis();
        ring.send(open(12, 3, "open-copy"), t);
        // buyers of buckets 1 and 2 only: bucket 0's units move to them
        BucketPlan plan = new BucketPlan(GOODS, 3, PARTITIONS);
        for (int u = 1, sent = 0; sent < 20; u++)
            if (plan.bucketOf(u) != 0) ring.send(new Purchase("copy-" + u, GOODS, u, 1, start), t + sent++);
        ring.drain(4, 100_000);
        var transfer = ring.sent.stream()
                .filter(e -> e.getValue().kind() == dev.seckill.stock.bucket.Hop.Kind.TRANSFER_IN)
                .findFirst()
                .orElseThrow();
        int home = HopOut.home(Long.toString(GOODS), PARTITIONS);
        String homeStock = redis.redis.get(redis.keys.stock(GOODS, 0));
        // When a copy of a transfer is appended to a partition that is not its bucket's
        int elsewhere = (home + transfer.getValue().bucket() + 1) % PARTITIONS;
        ring.inject(elsewhere, transfer.getKey(), transfer.getValue());
        ring.drain(1, 10);
        // Then it goes to the DLQ naming why, and no key of the goods changed
        assertTrue(ring.dlq.stream().anyMatch(r -> r.contains("not its bucket's")), () -> "DLQ: " + ring.dlq);
        assertEquals(homeStock, redis.redis.get(redis.keys.stock(GOODS, 0)));
        assertLedgerFoldsToTheRing(ring, 12, 3, 12);
    }

    private OpenSale open(long stock, int buckets, String opId) {
        return new OpenSale(
                GOODS,
                stock,
                start,
                start.plusSeconds(3600),
                1,
                opId,
                false,
                dev.seckill.contracts.fair.Fairness.FCFS,
                0,
                buckets);
    }

    /** Each requestId has one answer (a retry of a decided purchase is not answered again). */
    private static Map<String, Outcome> answeredOnce(BucketRing ring) {
        Map<String, Outcome> byRequest = new HashMap<>();
        for (Outcome o : ring.outcomes) {
            Outcome before = byRequest.put(o.requestId(), o);
            assertFalse(before != null && before.outcome() != o.outcome(), () -> "two answers for " + o.requestId());
        }
        return byRequest;
    }

    /**
     * The ledger folds to the goods as one pool: opened − sold, every transfer's two sides applied, each bucket's fold
     * holding what its entries say.
     */
    private static void assertLedgerFoldsToTheRing(BucketRing ring, long stock, int buckets, long sold) {
        long left = ring.ledger.stream().mapToLong(LedgerEntry::stockDelta).sum();
        assertEquals(stock - sold, left, "the ledger's units left");
        long out = ring.ledger.stream()
                .filter(e -> e.type() == LedgerType.TRANSFERRED_OUT)
                .count();
        long in = ring.ledger.stream()
                .filter(e -> e.type() == LedgerType.TRANSFERRED_IN)
                .count();
        assertEquals(out, in, "every transfer out came in");
        for (LedgerEntry e : ring.ledger) {
            assertNotNull(e.bucket(), () -> "a bucketed goods' entry names its bucket: " + e);
            assertEquals(2, e.v());
        }
        long folded = 0;
        int home = HopOut.home(Long.toString(GOODS), ring.partitions);
        for (int b = 0; b < buckets; b++) folded += ring.fold((home + b) % ring.partitions, GOODS).stock;
        assertEquals(stock - sold, folded, "the buckets' folds");
        assertTrue(Instant.now().isAfter(Instant.EPOCH));
    }
}
