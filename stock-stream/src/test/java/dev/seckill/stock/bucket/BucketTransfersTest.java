package dev.seckill.stock.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stock.bucket.BucketTransfers.Answer;
import dev.seckill.stock.bucket.BucketTransfers.Borrow;
import dev.seckill.stock.bucket.BucketTransfers.Effect;
import dev.seckill.stock.bucket.BucketTransfers.Message;
import dev.seckill.stock.bucket.BucketTransfers.MovedIn;
import dev.seckill.stock.bucket.BucketTransfers.MovedOut;
import dev.seckill.stock.bucket.BucketTransfers.Send;
import dev.seckill.stock.bucket.BucketTransfers.Terms;
import dev.seckill.stock.bucket.BucketTransfers.TransferIn;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The transfer rule against a model of the goods as one pool: random sales (2–6 buckets, stock 0–80, 1–3 units a
 * purchase, releases, a prefetch of 0–3) where purchases, releases and the buckets' messages interleave at random —
 * FIFO per partition, as Kafka delivers them. After every step: no bucket below 0, every unit in a bucket, in transit
 * or sold (opened = Σ stock + in transit + sold − released). Every purchase answered once, none left parked. A SOLD_OUT
 * only while the units free anywhere (not wanted by a parked purchase) are within the stated bound. After the sale, a
 * buyer who comes more than the re-borrow time later is sold any unit left in any bucket.
 */
class BucketTransfersTest {
    static final long T = 1_000;

    @Test
    void randomSales_conserveEveryUnit_answerEachPurchaseOnce_andTurnBuyersAwayOnlyWithinTheBound() {
        for (long seed = 0; seed < 400; seed++) new Sale(seed).run();
    }

    @Test
    void anEmptyBucketBorrowsFromTheNext_theBuyerWaitsParked_thenIsSold() {
        BucketPlan plan = new BucketPlan(5001, 2, 12);
        Terms terms = new Terms(0, T);
        BucketTransfers empty = new BucketTransfers(plan, 0, 0, terms);
        BucketTransfers full = new BucketTransfers(plan, 1, 5, terms);

        List<Effect> first = empty.purchase("r-1", 1, 0);
        assertThat(first).hasSize(2).first().isEqualTo(new BucketTransfers.Parked("r-1"));
        Borrow borrow = (Borrow) ((Send) first.get(1)).message();
        assertThat(borrow.to()).isEqualTo(1);
        assertThat(empty.purchase("r-2", 1, 1))
                .as("behind the parked one, in arrival order")
                .containsExactly(new BucketTransfers.Parked("r-2"));

        List<Effect> given = full.borrow(borrow, 2);
        TransferIn in = (TransferIn) ((Send) given.get(1)).message();
        assertThat(given.get(0)).isEqualTo(new MovedOut(0, 1, in.opId()));
        assertThat(full.stock())
                .as("gave what the borrow asked: the 1 unit parked when it was sent")
                .isEqualTo(4);

        List<Effect> arrived = empty.transferIn(in);
        assertThat(arrived.subList(0, 2)).containsExactly(new MovedIn(1, 1, in.opId()), new Answer("r-1", true, 1));
        Borrow again = (Borrow) ((Send) arrived.get(2)).message();
        assertThat(again.opId()).as("r-2 still parked: a new borrow").isNotEqualTo(borrow.opId());
        TransferIn second = (TransferIn) ((Send) full.borrow(again, 3).get(1)).message();
        assertThat(empty.transferIn(second))
                .containsExactly(new MovedIn(1, 1, second.opId()), new Answer("r-2", true, 1));
        assertThat(empty.borrowing()).isFalse();
    }

    @Test
    void aBorrowThatFindsEveryBucketEmpty_answersSoldOut_andNoNewPassUntilTheReborrowTime() {
        BucketPlan plan = new BucketPlan(5002, 3, 12);
        Terms terms = new Terms(0, T);
        List<BucketTransfers> b = List.of(
                new BucketTransfers(plan, 0, 0, terms),
                new BucketTransfers(plan, 1, 0, terms),
                new BucketTransfers(plan, 2, 0, terms));
        Borrow borrow = (Borrow) ((Send) b.get(0).purchase("r-1", 1, 0).get(1)).message();
        Borrow passed = (Borrow) ((Send) b.get(1).borrow(borrow, 1).get(0)).message();
        Borrow back = (Borrow) ((Send) b.get(2).borrow(passed, 2).get(0)).message();
        assertThat(back.to()).isZero();

        assertThat(b.get(0).borrow(back, 3)).containsExactly(new Answer("r-1", false, 1));
        assertThat(b.get(0).purchase("r-2", 1, 3 + T - 1))
                .as("within the re-borrow time: SOLD_OUT at once")
                .containsExactly(new Answer("r-2", false, 1));
        assertThat(b.get(0).purchase("r-3", 1, 3 + T))
                .as("past it: parked, a new pass")
                .hasSize(2);
    }

    @Test
    void oneBucketIsTodaysSale_soldOutAtOnce() {
        BucketTransfers only = new BucketTransfers(new BucketPlan(5003, 1, 12), 0, 1, new Terms(0, T));
        assertThat(only.purchase("r-1", 1, 0)).containsExactly(new Answer("r-1", true, 1));
        assertThat(only.purchase("r-2", 1, 0)).containsExactly(new Answer("r-2", false, 1));
    }

    /** One random sale, run against the model. */
    static final class Sale {
        final long seed;
        final Random rnd;
        final BucketPlan plan;
        final Terms terms;
        final int maxUnits;
        final long opened;
        final List<BucketTransfers> buckets = new ArrayList<>();
        final List<Deque<Message>> inbox = new ArrayList<>();
        final Map<String, Answer> answered = new HashMap<>();
        final Map<String, Integer> bucketOfRequest = new HashMap<>();
        final List<Answer> soldList = new ArrayList<>();
        /** Release times and units, to bound what a pass can miss. */
        final List<long[]> releases = new ArrayList<>();
        /** When each bucket's current pass, and any borrow in flight then, started. */
        final Map<String, Long> borrowStartedAt = new HashMap<>();

        final long[] passFrom;
        final Set<String> movedOut = new HashSet<>();
        final Set<String> movedIn = new HashSet<>();
        long now;
        long sold;
        long released;

        Sale(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            int n = 2 + rnd.nextInt(5);
            plan = new BucketPlan(7000 + seed, n, 12);
            terms = new Terms(rnd.nextInt(4), T);
            maxUnits = 1 + rnd.nextInt(3);
            opened = rnd.nextInt(81);
            long[] shares = plan.shares(opened);
            for (int b = 0; b < n; b++) {
                buckets.add(new BucketTransfers(plan, b, shares[b], terms));
                inbox.add(new ArrayDeque<>());
            }
            passFrom = new long[n];
        }

        void run() {
            int purchases = 50 + rnd.nextInt(250);
            int next = 0;
            while (next < purchases || inbox.stream().anyMatch(q -> !q.isEmpty())) {
                int action = rnd.nextInt(10);
                if (action < 4 && next < purchases) {
                    long user = 1 + rnd.nextInt(400);
                    int b = plan.bucketOf(user);
                    String rid = "r-" + next++;
                    bucketOfRequest.put(rid, b);
                    apply(b, buckets.get(b).purchase(rid, 1 + rnd.nextInt(maxUnits), now));
                } else if (action < 8) {
                    List<Integer> ready = new ArrayList<>();
                    for (int b = 0; b < inbox.size(); b++) if (!inbox.get(b).isEmpty()) ready.add(b);
                    if (ready.isEmpty()) continue;
                    int b = ready.get(rnd.nextInt(ready.size()));
                    Message m = inbox.get(b).poll();
                    apply(
                            b,
                            m instanceof Borrow br
                                    ? buckets.get(b).borrow(br, now)
                                    : buckets.get(b).transferIn((TransferIn) m));
                } else if (action == 8 && !soldList.isEmpty() && rnd.nextInt(4) == 0) {
                    Answer a = soldList.remove(rnd.nextInt(soldList.size()));
                    released += a.units();
                    releases.add(new long[] {now, a.units()});
                    int b = bucketOfRequest.get(a.requestId());
                    apply(b, buckets.get(b).release(a.units()));
                } else now += rnd.nextInt(300);
            }
            assertThat(answered).as(this + ": every purchase answered").hasSize(purchases);
            assertThat(buckets).as(this + ": none left parked").allMatch(b -> b.parkedUnits() == 0);
            assertThat(movedIn).as(this + ": every unit moved out came in").isEqualTo(movedOut);
            afterTheSale();
        }

        /** Buyers who come later than the re-borrow time are sold whatever is left, wherever it is. */
        void afterTheSale() {
            long left = buckets.stream().mapToLong(BucketTransfers::stock).sum();
            for (int late = 0; left > 0; late++) {
                now += T + 1;
                int b = rnd.nextInt(buckets.size());
                String rid = "late-" + late;
                apply(b, buckets.get(b).purchase(rid, 1, now));
                while (inbox.stream().anyMatch(q -> !q.isEmpty())) {
                    for (int i = 0; i < inbox.size(); i++) {
                        Message m = inbox.get(i).poll();
                        if (m == null) continue;
                        apply(
                                i,
                                m instanceof Borrow br
                                        ? buckets.get(i).borrow(br, now)
                                        : buckets.get(i).transferIn((TransferIn) m));
                    }
                }
                assertThat(answered.get(rid).sold())
                        .as(this + ": a late buyer with " + left + " unit(s) left somewhere")
                        .isTrue();
                left--;
            }
        }

        void apply(int bucket, List<Effect> effects) {
            for (Effect e : effects) {
                if (e instanceof Answer a) {
                    assertThat(answered.put(a.requestId(), a))
                            .as(this + ": answered once")
                            .isNull();
                    if (a.sold()) {
                        sold += a.units();
                        soldList.add(a);
                    } else checkSoldOut(bucket, a);
                } else if (e instanceof Send s) {
                    Message m = s.message();
                    if (m instanceof Borrow b && b.borrower() == bucket && !borrowStartedAt.containsKey(b.opId())) {
                        long from = now;
                        for (long t : borrowStartedAt.values()) from = Math.min(from, t);
                        passFrom[bucket] = from;
                        borrowStartedAt.put(b.opId(), now);
                    }
                    if (m instanceof TransferIn t) borrowStartedAt.remove(t.borrowOpId());
                    if (m instanceof Borrow b && b.to() == b.borrower()) borrowStartedAt.remove(b.opId());
                    inbox.get(m.to()).add(m);
                } else if (e instanceof MovedOut o) {
                    assertThat(movedOut.add(o.opId())).isTrue();
                } else if (e instanceof MovedIn i) {
                    assertThat(movedIn.add(i.opId())).isTrue();
                }
            }
            long inTransit = 0;
            for (Deque<Message> q : inbox) for (Message m : q) if (m instanceof TransferIn t) inTransit += t.units();
            long held = 0;
            for (BucketTransfers b : buckets) {
                assertThat(b.stock()).as(this + ": no bucket below 0").isNotNegative();
                held += b.stock();
            }
            assertThat(held + inTransit + sold - released)
                    .as(this + ": every unit in a bucket, in transit or sold")
                    .isEqualTo(opened);
        }

        /** A SOLD_OUT while units are free: only those a pass could not see, within the bound. */
        void checkSoldOut(int bucket, Answer a) {
            long free =
                    -buckets.stream().mapToLong(BucketTransfers::parkedUnits).sum();
            for (BucketTransfers b : buckets) free += b.stock();
            for (Deque<Message> q : inbox) for (Message m : q) if (m instanceof TransferIn t) free += t.units();
            long releasedSince = 0;
            for (long[] r : releases) if (r[0] >= passFrom[bucket]) releasedSince += r[1];
            long bound = buckets.size() * (terms.prefetch() + maxUnits - 1) + releasedSince;
            assertThat(free)
                    .as(this + ": units free anywhere when " + a + " was answered SOLD_OUT")
                    .isLessThanOrEqualTo(Math.max(bound, a.units() - 1));
        }

        @Override
        public String toString() {
            return "seed " + seed + " (" + plan.buckets() + " buckets, " + opened + " units, prefetch "
                    + terms.prefetch() + ", up to " + maxUnits + " a purchase)";
        }
    }
}
