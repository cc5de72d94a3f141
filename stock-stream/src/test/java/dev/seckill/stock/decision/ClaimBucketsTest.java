package dev.seckill.stock.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.seckill.contracts.command.CommandPartitions;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.bucket.Hop;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A bucketed goods' purchases sent by producers that route them (docs/decisions.md, "Stock buckets", where a requestId
 * is claimed): straight to the partition {@link CommandPartitions#claimPartition} names, to the goods' home as ever, or
 * to a partition a stale producer guessed. One real {@link Decider} per partition over a real Redis ({@link
 * BucketRing}), the partitions interleaved at random: whatever the route, every requestId keeps one meaning, no unit is
 * sold twice or left while a buyer hears SOLD_OUT — and a purchase sent straight to its claim passes no home.
 */
class ClaimBucketsTest extends TestRedisCase {
    private static final long GOODS = 5151;
    private static final int PARTITIONS = 6;

    @Test
    void purchasesSentByAnyRouteAreEachDecidedOnceAndEveryUnitIsSold() {
        for (long seed = 1; seed <= 6; seed++) {
            int buckets = 2 + (int) (seed % 3);
            long stock = 30 + seed * 5;
            Random route = new Random(seed);
            // Given a goods of `stock` units in `buckets` buckets, opened and decided
            BucketRing ring = new BucketRing(redis, PARTITIONS, 0, seed % 2 == 0 ? 0 : 60_000, seed);
            long t = System.currentTimeMillis();
            ring.send(open(stock, buckets, "open-route-" + seed), t);
            ring.drain(4, 10_000);
            // (each bucket's OPENED entry says the sale claims over every bucket: producers route by it)
            List<Integer> claims = ring.ledger.stream()
                    .filter(e -> e.type() == LedgerType.OPENED)
                    .map(e -> e.bucket().claims())
                    .toList();
            assertEquals(Collections.nCopies(buckets, buckets), claims, "seed " + seed + ": the open's claim layout");
            // When more buyers than units send, some twice, some a retry of the same purchase — each copy by a route
            // picked at random: straight to its claim partition, to the home, or to any partition
            int buyers = (int) stock + 25;
            int sent = 0;
            for (int u = 1; u <= buyers; u++) {
                Purchase p = new Purchase("route-" + seed + "-" + u, GOODS, u, 1, start);
                sendByRoute(ring, route, p, buckets, t + u);
                sent++;
                if (u % 5 == 0) sendByRoute(ring, route, p, buckets, t + u); // a retry
                if (u % 7 == 0) {
                    sendByRoute(ring, route, new Purchase("route2-" + seed + "-" + u, GOODS, u, 1, start), buckets, t);
                    sent++;
                }
            }
            ring.drain(16, 300_000);
            // Then every unit is sold, once per buyer, each requestId has one answer, and only buyers without a unit
            // hear SOLD_OUT
            long s = seed;
            assertTrue(ring.dlq.isEmpty(), () -> "seed " + s + ": no DLQ record, got " + ring.dlq);
            Map<String, Outcome> byRequest = answeredOnce(ring);
            assertEquals(sent, byRequest.size(), "seed " + seed + ": every requestId answered");
            Set<Long> holders = new HashSet<>();
            long sold = 0;
            for (Outcome o : byRequest.values())
                if (o.outcome() == OutcomeKind.SUCCESS) {
                    sold += o.quantity();
                    assertTrue(holders.add(o.userId()), "buyer " + o.userId() + " sold to twice");
                }
            assertEquals(stock, sold, "seed " + seed + ": every unit sold");
            for (Outcome o : byRequest.values())
                if (o.outcome() == OutcomeKind.SOLD_OUT)
                    assertFalse(holders.contains(o.userId()), () -> "a holder told SOLD_OUT: " + o);
            long left = ring.ledger.stream().mapToLong(LedgerEntry::stockDelta).sum();
            assertEquals(0, left, "seed " + seed + ": the ledger's units left");
        }
    }

    @Test
    void aRequestIdReusedByAnotherBuyerIsRefusedWhateverRouteEachCopyTook() {
        // Given a goods of 4 buckets, and two buyers of different buckets
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 5);
        long t = System.currentTimeMillis();
        ring.send(open(100, 4, "open-reuse"), t);
        ring.drain(4, 10_000);
        long first = 1;
        while (CommandPartitions.bucketOf(first, 4) == CommandPartitions.bucketOf(first + 1, 4)) first++;
        long other = first + 1;
        int home = CommandPartitions.home(GOODS, PARTITIONS);
        int claim = CommandPartitions.claimPartition(GOODS, "shared", 4, PARTITIONS);
        int stray = (claim + 1) % PARTITIONS == home ? (claim + 2) % PARTITIONS : (claim + 1) % PARTITIONS;
        // When the first buyer sends it straight to its claim, retries it through the home, and the other buyer sends
        // the same requestId to a partition that does not claim it
        ring.sendTo(claim, new Purchase("shared", GOODS, first, 1, start), t + 1);
        ring.send(new Purchase("shared", GOODS, first, 1, start), t + 2);
        ring.sendTo(stray, new Purchase("shared", GOODS, other, 1, start), t + 3);
        ring.drain(3, 10_000);
        // Then the first buyer's purchase succeeds once and the other's is refused, naming the field
        List<Outcome> answers = ring.outcomes.stream()
                .filter(o -> o.requestId().equals("shared"))
                .toList();
        assertEquals(
                1,
                answers.stream().filter(o -> o.outcome() == OutcomeKind.SUCCESS).count(),
                () -> "one SUCCESS: " + answers);
        Outcome success = answers.stream()
                .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                .findFirst()
                .orElseThrow();
        assertEquals(first, success.userId());
        Outcome refused = answers.stream()
                .filter(o -> o.outcome() == OutcomeKind.REJECTED)
                .findFirst()
                .orElseThrow(() -> new AssertionError("the reuse refused: " + answers));
        assertEquals(other, refused.userId());
        assertTrue(refused.detail().contains("userId"), refused.detail());
    }

    @Test
    void aPurchaseSentStraightToItsClaimPassesNoHome() {
        // Given a goods of 3 buckets, opened and decided
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 9);
        long t = System.currentTimeMillis();
        ring.send(open(300, 3, "open-straight"), t);
        ring.drain(4, 10_000);
        long hopsAfterOpen = ring.hops;
        // When 60 buyers each send a purchase straight to its claim partition
        int routed = 0;
        for (int u = 1; u <= 60; u++) {
            String id = "straight-" + u;
            ring.sendTo(
                    CommandPartitions.claimPartition(GOODS, id, 3, PARTITIONS),
                    new Purchase(id, GOODS, u, 1, start),
                    t);
            if (CommandPartitions.claimBucket(GOODS, id, 3) != CommandPartitions.bucketOf(u, 3)) routed++;
        }
        ring.drain(8, 10_000);
        // Then each is claimed where it arrived: no claim hop, one command hop for each buyer of another bucket, and
        // every purchase succeeds
        long claims = ring.sent.stream()
                .filter(e -> e.getValue().kind() == Hop.Kind.CLAIM)
                .count();
        assertEquals(0, claims, "no purchase went by the home");
        assertEquals(routed, ring.hops - hopsAfterOpen, "one hop per purchase whose buyer is in another bucket");
        assertEquals(
                60,
                ring.outcomes.stream()
                        .filter(o -> o.outcome() == OutcomeKind.SUCCESS)
                        .count());
    }

    @Test
    void aReopenInMoreBucketsClaimsWhereTheEarlierSalesIdsWere() {
        // Given a goods sold in one bucket, whose buyer's request was decided there (no units: SOLD_OUT) — a buyer and
        // an id that a fresh sale of 4 buckets would put away from home
        long buyer = 1;
        while (CommandPartitions.bucketOf(buyer, 4) == 0) buyer++;
        String early = "early-0";
        for (int i = 1; CommandPartitions.claimBucket(GOODS, early, 4) == 0; i++) early = "early-" + i;
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 21);
        long t = System.currentTimeMillis();
        ring.send(open(0, 1, "open-one"), t);
        ring.send(new Purchase(early, GOODS, buyer, 1, start), t + 1);
        ring.drain(2, 10_000);
        // When it is opened again in 4 buckets, and the request comes again — by its buyer, and by another — each copy
        // sent straight to the partition a 4-bucket claim would be in
        ring.send(
                new OpenSale(GOODS, 40, start, start.plusSeconds(3600), 1, "open-four", true, Fairness.FCFS, 0, 4),
                t + 2);
        ring.drain(4, 10_000);
        assertTrue(ring.dlq.isEmpty(), () -> "the re-open stood: " + ring.dlq);
        // (its OPENED entries say it claims at home, the earlier sale's layout: a producer that reads them routes
        // there)
        assertEquals(
                List.of(1, 1, 1, 1),
                ring.ledger.stream()
                        .filter(e -> e.type() == LedgerType.OPENED && e.bucket() != null)
                        .map(e -> e.bucket().claims())
                        .toList(),
                "the re-open's claim layout on its OPENED entries");
        int straight = CommandPartitions.claimPartition(GOODS, early, 4, PARTITIONS);
        ring.sendTo(straight, new Purchase(early, GOODS, buyer, 1, start), t + 3);
        ring.sendTo(straight, new Purchase(early, GOODS, buyer + 1, 1, start), t + 4);
        ring.drain(2, 10_000);
        // Then both are refused where the id was decided (the home: the sale keeps its goods' earlier claim layout),
        // and
        // no unit of the new sale goes to them
        String id = early;
        List<Outcome> again = ring.outcomes.stream()
                .filter(o -> o.requestId().equals(id))
                .skip(1)
                .toList();
        assertEquals(2, again.size(), () -> "both copies answered: " + ring.outcomes);
        assertTrue(again.stream().allMatch(o -> o.outcome() == OutcomeKind.REJECTED), () -> "refused: " + again);
        assertTrue(ring.ledger.stream().noneMatch(e -> id.equals(e.requestId())), () -> "no entry: " + ring.ledger);
    }

    @Test
    void aPurchaseClaimedAsTheGoodsReopensIsAnsweredTheSameEveryTime() {
        // Given a goods of 2 buckets, and a purchase whose requestId bucket 1 claims, of a buyer of bucket 0 (the home)
        long buyer = 1;
        while (CommandPartitions.bucketOf(buyer, 2) != 0) buyer++;
        String id = "crossing-0";
        for (int i = 1; CommandPartitions.claimBucket(GOODS, id, 2) != 1; i++) id = "crossing-" + i;
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 23);
        long t = System.currentTimeMillis();
        ring.send(open(10, 2, "open-before"), t);
        ring.drain(4, 10_000);
        int home = CommandPartitions.home(GOODS, PARTITIONS);
        // When the home sends the purchase to its claim, and then opens the goods again before the claim is decided
        // (the claim decides it in the sale before; its buyer's bucket, the home, is in the new one by then)
        ring.send(new Purchase(id, GOODS, buyer, 1, start), t + 1);
        ring.decidePartition(home, 1);
        ring.send(
                new OpenSale(GOODS, 10, start, start.plusSeconds(3600), 1, "open-after", true, Fairness.FCFS, 0, 2),
                t + 2);
        ring.decidePartition(home, 1);
        ring.drain(2, 10_000);
        // and the buyer retries it
        ring.send(new Purchase(id, GOODS, buyer, 1, start), t + 3);
        ring.drain(2, 10_000);
        // Then every answer it gets is the same — not sold in the new sale under a claim of the old one
        String crossing = id;
        List<Outcome> answers = ring.outcomes.stream()
                .filter(o -> o.requestId().equals(crossing))
                .toList();
        assertFalse(answers.isEmpty(), () -> "answered: " + ring.outcomes + " " + ring.dlq);
        assertTrue(
                answers.stream().allMatch(o -> o.outcome() == answers.get(0).outcome()),
                () -> "one answer: " + answers);
        assertTrue(ring.dlq.isEmpty(), () -> "DLQ: " + ring.dlq);
    }

    @Test
    void aRequestIdParkedInItsBucketStaysItsFirstBuyers() {
        // Given a goods of 3 buckets of one unit each, and bucket b's unit sold: a purchase there parks while a borrow
        // goes round
        int b = 1;
        String id = "parked-0";
        for (int i = 1; CommandPartitions.claimBucket(GOODS, id, 3) != b; i++) id = "parked-" + i;
        long first = 1;
        while (CommandPartitions.bucketOf(first, 3) != b) first++;
        long earlier = first + 1;
        while (CommandPartitions.bucketOf(earlier, 3) != b) earlier++;
        long other = 1;
        while (CommandPartitions.bucketOf(other, 3) == b) other++;
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 25);
        long t = System.currentTimeMillis();
        ring.send(open(3, 3, "open-parked"), t);
        ring.drain(4, 10_000);
        int partition = CommandPartitions.bucketPartition(GOODS, b, PARTITIONS);
        ring.sendTo(partition, new Purchase("took-" + earlier, GOODS, earlier, 1, start), t + 1);
        ring.drain(2, 10_000);
        // When the first buyer's purchase, and then another buyer's under the same requestId, reach bucket b (its
        // claim), and the first parks before the second is decided
        ring.sendTo(partition, new Purchase(id, GOODS, first, 1, start), t + 2);
        ring.sendTo(partition, new Purchase(id, GOODS, other, 1, start), t + 3);
        ring.decidePartition(partition, 1);
        ring.drain(1, 10_000);
        // Then the id stays the first buyer's: the other's is refused, the first's decided once units come
        String parked = id;
        List<Outcome> answers =
                ring.outcomes.stream().filter(o -> o.requestId().equals(parked)).toList();
        long o = other;
        assertTrue(
                answers.stream()
                        .filter(a -> a.userId() == o)
                        .allMatch(a -> a.outcome() == OutcomeKind.REJECTED
                                && a.detail().contains("userId")),
                () -> "the reuse refused: " + answers);
        long f = first;
        assertEquals(
                OutcomeKind.SUCCESS,
                answers.stream()
                        .filter(a -> a.userId() == f)
                        .findFirst()
                        .orElseThrow()
                        .outcome(),
                () -> "the first buyer's, with a unit borrowed: " + answers);
    }

    @Test
    void aPurchaseClaimedInABucketThatRefusedTheReopenIsAnsweredNotSentRound() {
        // Given a goods of 3 buckets whose bucket k has a live buyer, opened again with force: k refuses its share (it
        // stays in the sale before), home and the other buckets open the new one
        int k = 2;
        long holder = 1;
        while (CommandPartitions.bucketOf(holder, 3) != k) holder++;
        long buyer = 1;
        while (CommandPartitions.bucketOf(buyer, 3) == k) buyer++;
        String id = "refused-0";
        for (int i = 1; CommandPartitions.claimBucket(GOODS, id, 3) != k; i++) id = "refused-" + i;
        BucketRing ring = new BucketRing(redis, PARTITIONS, 0, 60_000, 27);
        long t = System.currentTimeMillis();
        ring.send(open(30, 3, "open-a"), t);
        ring.drain(4, 10_000);
        ring.send(new Purchase("hold-" + holder, GOODS, holder, 1, start), t + 1);
        ring.drain(4, 10_000);
        ring.send(
                new OpenSale(GOODS, 30, start, start.plusSeconds(3600), 1, "open-b", true, Fairness.FCFS, 0, 3), t + 2);
        ring.drain(4, 10_000);
        assertEquals(
                "open-a",
                ring.fold(CommandPartitions.bucketPartition(GOODS, k, PARTITIONS), GOODS).saleOpId,
                () -> "bucket k refused: " + ring.dlq);
        // When a buyer of another bucket sends a purchase whose requestId bucket k claims, home-keyed and straight to k
        ring.send(new Purchase(id, GOODS, buyer, 1, start), t + 3);
        ring.sendTo(
                CommandPartitions.bucketPartition(GOODS, k, PARTITIONS),
                new Purchase(id, GOODS, buyer, 1, start),
                t + 4);
        // Then it is answered — no unit of a sale bucket k is not in — and nothing goes round for ever
        ring.drain(4, 2_000);
        String refused = id;
        List<Outcome> answers = ring.outcomes.stream()
                .filter(o -> o.requestId().equals(refused))
                .toList();
        assertFalse(answers.isEmpty(), () -> "answered: " + ring.dlq);
        assertTrue(answers.stream().noneMatch(o -> o.outcome() == OutcomeKind.SUCCESS), () -> "not sold: " + answers);
    }

    /** Sends {@code p} straight to its claim partition, to its home, or to any partition, at random. */
    private static void sendByRoute(BucketRing ring, Random route, Purchase p, int buckets, long t) {
        switch (route.nextInt(3)) {
            case 0 -> ring.sendTo(CommandPartitions.claimPartition(GOODS, p.requestId(), buckets, PARTITIONS), p, t);
            case 1 -> ring.send(p, t);
            default -> ring.sendTo(route.nextInt(PARTITIONS), p, t);
        }
    }

    private OpenSale open(long stock, int buckets, String opId) {
        return new OpenSale(GOODS, stock, start, start.plusSeconds(3600), 1, opId, false, Fairness.FCFS, 0, buckets);
    }

    /** Each requestId's answers agree (a retry of a decided purchase may be answered again, the same). */
    private static Map<String, Outcome> answeredOnce(BucketRing ring) {
        Map<String, Outcome> byRequest = new HashMap<>();
        for (Outcome o : ring.outcomes) {
            Outcome before = byRequest.put(o.requestId(), o);
            assertFalse(
                    before != null && (before.outcome() != o.outcome() || before.userId() != o.userId()),
                    () -> "two answers for " + o.requestId());
        }
        return byRequest;
    }
}
