package dev.seckill.stock.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.bucket.BucketPlan;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.bucket.HopOut;
import dev.seckill.stock.draw.DrawTerms;
import dev.seckill.stock.draw.SigningBeacon;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drawn sale of a goods split into buckets (docs/invariants.md, "A draw across buckets"), decided by one real
 * {@link Decider} per partition over a real Redis ({@link BucketRing}): the draw's release passes the window's entries on
 * at the goods' home in the draw's order, and the winners are the draw's first buyers as far as the goods' units go,
 * whatever bucket each buyer is in.
 */
class DrawnBucketsTest extends TestRedisCase {
    private static final int PARTITIONS = 6;
    private static final int BUCKETS = 4;
    private static final int LIMIT = 2;
    private static final long WINDOW_MS = 10_000;

    @TempDir
    Path dir;

    SigningBeacon beacon;
    DrawTerms draw;

    @BeforeEach
    void beacon() throws Exception {
        beacon = new SigningBeacon(dir.resolve("beacon.key"));
        draw = new DrawTerms(beacon, Duration.ofSeconds(1), Duration.ZERO);
    }

    @AfterEach
    void closeBeacon() {
        beacon.close();
    }

    @Test
    void theWinnersAreTheDrawsFirstBuyersWhateverTheirBucket() {
        for (long seed = 1; seed <= 6; seed++) {
            long goods = 5100 + seed;
            long stock = 20 + seed * 5;
            Random random = new Random(seed);
            // Given a lottery of `stock` units split into 4 buckets, opened and its shares decided
            BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, seed, seed % 2 == 0, draw);
            long t = System.currentTimeMillis();
            ring.send(lottery(goods, stock, "lottery-" + seed), t);
            ring.drain(4, 10_000);
            // and its window's entries in the draw's order: more buyers than units, each buyer's requests together —
            // some over the limit, some a second request, some a retry of the first
            List<Purchase> order = entries(goods, 3 * stock, random);
            // When the draw's release passes them on at home, and every partition decides its log in random batches
            for (Purchase p : order) ring.sendEntry(p, t + 1);
            ring.drain(1 + (int) seed * 4, 200_000);
            // Then the winners are the draw's first buyers as far as the units and the limit go
            assertTrue(ring.dlq.isEmpty(), () -> "no DLQ record, got " + ring.dlq);
            Map<String, Outcome> byRequest = answeredOnce(ring);
            Set<String> expected = winners(order, stock);
            Set<String> won = new HashSet<>();
            for (Outcome o : byRequest.values()) if (o.outcome() == OutcomeKind.SUCCESS) won.add(o.requestId());
            assertEquals(expected, won, "seed " + seed + ": the winners");
            assertEquals(
                    new HashSet<>(order.stream().map(Purchase::requestId).toList()),
                    byRequest.keySet(),
                    "seed " + seed + ": every requestId answered");
            // and nothing waited on a borrow: the units went out from home in the draw's order
            assertTrue(ring.sent.stream().noneMatch(e -> e.getValue().kind() == Hop.Kind.BORROW), "a borrow was sent");
            assertDeductedInDrawOrderPerBucket(ring, goods, order);
            long sold =
                    won.stream().mapToLong(id -> byRequest.get(id).quantity()).sum();
            assertFoldsAsOnePool(ring, goods, stock, sold);
        }
    }

    @Test
    void afterTheDrawTheBucketsBorrowFromHomeAsEver() {
        long goods = 5200;
        // Given a lottery of 10 units in 4 buckets whose draw gave 2 units to 2 of its entries
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 7, false, draw);
        long t = System.currentTimeMillis();
        ring.send(lottery(goods, 10, "lottery-after"), t);
        ring.drain(4, 10_000);
        ring.sendEntry(new Purchase("drawn-1", goods, 1, 1, start.plusMillis(5)), t + 1);
        ring.sendEntry(new Purchase("drawn-2", goods, 2, 1, start.plusMillis(6)), t + 1);
        ring.drain(4, 10_000);
        // When buyers of every bucket buy after the window (first-come, not released by the draw)
        BucketPlan plan = new BucketPlan(goods, BUCKETS, PARTITIONS);
        List<Long> late = new ArrayList<>();
        for (long u = 100; late.size() < 12; u++) if (plan.bucketOf(u) != 0 || late.size() % 4 == 0) late.add(u);
        for (long u : late) ring.send(new Purchase("late-" + u, goods, u, 1, start.plusSeconds(20)), t + 2);
        ring.drain(3, 100_000);
        // Then the 8 units left are sold to 8 of them through borrows from home, and the other 4 hear SOLD_OUT
        Map<String, Outcome> byRequest = answeredOnce(ring);
        long lateWins = late.stream()
                .filter(u -> byRequest.get("late-" + u).outcome() == OutcomeKind.SUCCESS)
                .count();
        assertEquals(8, lateWins);
        assertEquals(
                4,
                late.stream()
                        .filter(u -> byRequest.get("late-" + u).outcome() == OutcomeKind.SOLD_OUT)
                        .count());
        assertTrue(ring.dlq.isEmpty(), () -> "DLQ: " + ring.dlq);
        assertFoldsAsOnePool(ring, goods, 10, 10);
    }

    @Test
    void aDrawnIdReusedByAnotherBuyerStraightToABucketIsRefusedAtHome() {
        long goods = 5300;
        // Given a lottery of 10 units in 4 buckets whose draw gave a unit to buyer 1's request — an id a first-come
        // sale of
        // 4 buckets would claim away from home
        String id = "drawn-1";
        for (int i = 2; dev.seckill.contracts.command.CommandPartitions.claimBucket(goods, id, BUCKETS) == 0; i++)
            id = "drawn-" + i;
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 9, false, draw);
        long t = System.currentTimeMillis();
        ring.send(lottery(goods, 10, "lottery-claims"), t);
        ring.drain(4, 10_000);
        ring.sendEntry(new Purchase(id, goods, 1, 1, start.plusMillis(5)), t + 1);
        ring.drain(4, 10_000);
        // When another buyer sends the same requestId after the window, straight to every bucket's partition — where a
        // first-come sale would claim some id
        // (a buyer of another bucket than home's and the winner's: no bucket of theirs knows the id)
        BucketPlan plan = new BucketPlan(goods, BUCKETS, PARTITIONS);
        long other = 2;
        while (plan.bucketOf(other) == 0 || plan.bucketOf(other) == plan.bucketOf(1)) other++;
        for (int b = 0; b < BUCKETS; b++)
            ring.sendTo(
                    dev.seckill.contracts.command.CommandPartitions.bucketPartition(goods, b, PARTITIONS),
                    new Purchase(id, goods, other, 1, start.plusSeconds(20)),
                    t + 2);
        ring.drain(3, 100_000);
        // Then every copy is claimed at home, where the draw claimed it: refused, and buyer 1's unit the only one sold
        long buyer = other;
        String drawn = id;
        List<Outcome> answers =
                ring.outcomes.stream().filter(o -> o.requestId().equals(drawn)).toList();
        List<Outcome> reused = answers.stream().filter(o -> o.userId() == buyer).toList();
        assertFalse(reused.isEmpty(), () -> "the reuse answered: " + answers + " " + ring.dlq);
        assertTrue(
                reused.stream().allMatch(o -> o.outcome() == OutcomeKind.REJECTED),
                () -> "the reuse refused: " + answers);
        assertEquals(
                1,
                answers.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS).count(),
                () -> "one SUCCESS: " + answers);
        assertTrue(ring.dlq.isEmpty(), () -> "DLQ: " + ring.dlq);
    }

    @Test
    void aLotteryWaitsUntilTheIdsOfAnEarlierSaleClaimedInBucketsAreForgotten() {
        long goods = 5400;
        // Given a first-come sale of 4 buckets (its requestIds claimed over the 4) that sold a unit
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 11, false, draw);
        long t = System.currentTimeMillis();
        ring.send(
                new OpenSale(
                        goods,
                        10,
                        start,
                        start.plusSeconds(3600),
                        LIMIT,
                        "fcfs-first",
                        false,
                        Fairness.FCFS,
                        0,
                        BUCKETS),
                t);
        ring.drain(4, 10_000);
        ring.send(new Purchase("first-1", goods, 1, 1, start), t + 1);
        ring.drain(4, 10_000);
        // When a lottery of the goods is opened while those decisions are kept
        ring.send(
                new OpenSale(
                        goods,
                        10,
                        start,
                        start.plusSeconds(3600),
                        LIMIT,
                        "lottery-next",
                        true,
                        Fairness.LOTTERY,
                        WINDOW_MS,
                        BUCKETS),
                t + 2);
        ring.drain(4, 10_000);
        // Then it is refused, saying why (its entries, claimed at home, would not find the earlier sale's ids)
        assertTrue(
                ring.dlq.stream().anyMatch(r -> r.contains("claims every requestId at home")),
                () -> "DLQ: " + ring.dlq);
        assertTrue(ring.ledger.stream()
                .noneMatch(e -> "lottery-next".equals(e.opId()) || e.opId().startsWith("lottery-next@")));
    }

    private OpenSale lottery(long goods, long stock, String opId) {
        return new OpenSale(
                goods, stock, start, start.plusSeconds(3600), LIMIT, opId, false, Fairness.LOTTERY, WINDOW_MS, BUCKETS);
    }

    /** {@code buyers} buyers in a random order, each with one to three requests together (another, a retry, over the limit). */
    private List<Purchase> entries(long goods, long buyers, Random random) {
        List<Long> users = new ArrayList<>();
        for (long u = 1; u <= buyers; u++) users.add(u);
        Collections.shuffle(users, random);
        List<Purchase> order = new ArrayList<>();
        for (long u : users) {
            int n = 0;
            Purchase first = purchase(goods, u, n++, 1 + random.nextInt(LIMIT + 1), random);
            order.add(first);
            if (random.nextInt(5) == 0) order.add(first); // a retry: the same request again
            if (random.nextInt(4) == 0) order.add(purchase(goods, u, n, 1 + random.nextInt(LIMIT), random));
        }
        return order;
    }

    private Purchase purchase(long goods, long user, int n, int quantity, Random random) {
        return new Purchase(
                "e-" + goods + "-" + user + "-" + n, goods, user, quantity, start.plusMillis(random.nextInt((int)
                        WINDOW_MS)));
    }

    /**
     * The winners by the draw's rule, written apart from the stream's code: in order, a requestId seen before is not a
     * new purchase, a quantity over the limit or over the units left is refused, and a buyer who won buys nothing more.
     */
    private static Set<String> winners(List<Purchase> order, long stock) {
        long units = stock;
        Set<String> won = new LinkedHashSet<>();
        Set<String> seen = new HashSet<>();
        Set<Long> holders = new HashSet<>();
        for (Purchase p : order) {
            if (!seen.add(p.requestId()) || holders.contains(p.userId())) continue;
            if (p.quantity() > LIMIT || p.quantity() > units) continue;
            units -= p.quantity();
            won.add(p.requestId());
            holders.add(p.userId());
        }
        return won;
    }

    /** In each bucket, the DEDUCTED entries come in the draw's order (the buckets' own orders interleave at random). */
    private static void assertDeductedInDrawOrderPerBucket(BucketRing ring, long goods, List<Purchase> order) {
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) rank.putIfAbsent(order.get(i).requestId(), i);
        Map<Integer, Integer> last = new HashMap<>();
        for (LedgerEntry e : ring.ledger) {
            if (e.goodsId() != goods || e.type() != LedgerType.DEDUCTED) continue;
            int r = rank.get(e.requestId());
            Integer before = last.put(e.bucketIndex(), r);
            assertTrue(before == null || before < r, () -> e.requestId() + " deducted after one the draw ranks behind");
        }
    }

    /** Each requestId has one answer. */
    private static Map<String, Outcome> answeredOnce(BucketRing ring) {
        Map<String, Outcome> byRequest = new HashMap<>();
        for (Outcome o : ring.outcomes) {
            Outcome before = byRequest.put(o.requestId(), o);
            assertFalse(before != null && before.outcome() != o.outcome(), () -> "two answers for " + o.requestId());
        }
        return byRequest;
    }

    /** The ledger and the buckets' folds say the goods as one pool: opened − sold, every transfer's sides applied. */
    private static void assertFoldsAsOnePool(BucketRing ring, long goods, long stock, long sold) {
        List<LedgerEntry> entries =
                ring.ledger.stream().filter(e -> e.goodsId() == goods).toList();
        assertEquals(
                stock - sold,
                entries.stream().mapToLong(LedgerEntry::stockDelta).sum(),
                "the ledger's units left");
        assertEquals(
                entries.stream()
                        .filter(e -> e.type() == LedgerType.TRANSFERRED_OUT)
                        .count(),
                entries.stream()
                        .filter(e -> e.type() == LedgerType.TRANSFERRED_IN)
                        .count(),
                "every transfer out came in");
        for (LedgerEntry e : entries) assertNotNull(e.bucket(), () -> "an entry names its bucket: " + e);
        long folded = 0;
        int home = HopOut.home(Long.toString(goods), ring.partitions);
        for (int b = 0; b < BUCKETS; b++) folded += ring.fold((home + b) % ring.partitions, goods).stock;
        assertEquals(stock - sold, folded, "the buckets' folds");
    }
}
