package dev.seckill.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.status.PurchaseStatusStore.Indexed;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;

/**
 * The status store's claim and compare-and-set index write, and what each entry costs and lives (
 * bounded by kind, the buyer's list), on the machine's Redis under a test prefix.
 */
class PurchaseStatusStoreTest {
    static RedisClient redis;
    static RedisBatcher batcher;
    static RedisKeys keys;
    static PurchaseStatusStore store;
    static final Duration DECIDED = Duration.ofHours(2);
    static final Duration REJECTED = Duration.ofMinutes(10);
    static final Duration PENDING = Duration.ofMinutes(5);

    @BeforeAll
    static void start() {
        redis = RedisClient.create(URI.create("redis://127.0.0.1:6379"));
        batcher = new RedisBatcher(redis, 1000, "status-store-test");
        keys = new RedisKeys("pss-" + UUID.randomUUID().toString().substring(0, 8) + ":");
        store = new PurchaseStatusStore(
                PurchaseStatusStore.Lanes.shared(batcher),
                keys,
                new PurchaseStatusStore.Retention(DECIDED, REJECTED, PENDING),
                Clock.systemUTC());
        // the first call opens the connection and loads the classes: not within the store's 500 ms bound on a cold JVM
        batcher.submit(pipe -> pipe.exists("warm")).join();
        PurchaseStatus.parse(new PurchaseStatus.Pending("warm", 1, 1, 1, Instant.now()).encode()); // JSON classes
        PurchaseStatus.encode(outcome("warm", 1, 1, 1, OutcomeKind.SUCCESS));
    }

    @AfterAll
    static void stop() {
        batcher.close();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = redis.scan(
                    cursor, new ScanParams().match(keys.prefix() + "*").count(1000));
            page.getResult().forEach(redis::del);
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        redis.close();
    }

    static String id() {
        return "pss-" + UUID.randomUUID();
    }

    static Outcome outcome(String id, long goodsId, long userId, int quantity, OutcomeKind kind) {
        return Outcome.of(id, goodsId, userId, quantity, kind, null, 0, Instant.now(), Instant.now(), 0, 0);
    }

    static PurchaseStatusStore.Claimed claim(String id, long goodsId, long userId, int quantity) throws Exception {
        return store.claim(new PurchaseStatus.Pending(id, goodsId, userId, quantity, Instant.now()))
                .get(5, TimeUnit.SECONDS);
    }

    static Indexed index(Outcome o) throws Exception {
        return store.decided(o).get(5, TimeUnit.SECONDS);
    }

    static PurchaseStatus held(String id) throws Exception {
        return store.lookup(id).get(5, TimeUnit.SECONDS).status();
    }

    @Test
    void aClaimNamesTheFieldThatDiffers_nullForTheSamePurchase() throws Exception {
        String id = id();
        assertThat(claim(id, 10, 7, 1)).isEqualTo(new PurchaseStatusStore.Claimed(new PurchaseStatus.Unknown(), null));
        assertThat(claim(id, 10, 7, 1).differs()).isNull();
        assertThat(claim(id, 11, 7, 1).differs()).isEqualTo("goodsId");
        assertThat(claim(id, 10, 7, 2).differs()).isEqualTo("quantity");
        assertThat(claim(id, 11, 8, 2).differs()).as("another buyer first").isEqualTo("userId");
        assertThat(index(outcome(id, 10, 7, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.WRITTEN);
        assertThat(claim(id, 10, 7, 1).previous()).isInstanceOf(PurchaseStatus.Decided.class);
        assertThat(claim(id, 10, 7, 3).differs())
                .as("against the decided purchase")
                .isEqualTo("quantity");
    }

    @Test
    void theIndexWritesOnlyOntoNothingOrTheClaimOfTheSamePurchase_andNeverReplacesAnOutcome() throws Exception {
        String id = id();
        claim(id, 10, 7, 1);
        assertThat(index(outcome(id, 11, 7, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(index(outcome(id, 10, 8, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(index(outcome(id, 10, 7, 2, OutcomeKind.REJECTED).withDetail("requestId reused")))
                .isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(held(id)).isInstanceOf(PurchaseStatus.Pending.class);
        assertThat(index(outcome(id, 10, 7, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.WRITTEN);
        assertThat(index(outcome(id, 10, 7, 1, OutcomeKind.SUCCESS)))
                .as("a re-delivery")
                .isEqualTo(Indexed.ALREADY);
        assertThat(index(outcome(id, 10, 7, 1, OutcomeKind.REJECTED))).isEqualTo(Indexed.ALREADY);
        assertThat(index(outcome(id, 12, 9, 1, OutcomeKind.SOLD_OUT))).isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(((PurchaseStatus.Decided) held(id)).outcome().outcome()).isEqualTo(OutcomeKind.SUCCESS);
        assertThat(redis.pttl(keys.purchaseStatus(id)))
                .as("the entry keeps a TTL")
                .isPositive();

        String upstream = id(); // nothing claimed: the first outcome indexed is what the store holds
        assertThat(index(outcome(upstream, 20, 5, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.WRITTEN);
        assertThat(index(outcome(upstream, 21, 5, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(held(upstream).payload()).isEqualTo(new Payload(20, 5, 1));
    }

    @Test
    void idsBeyondTwoToThe53AreComparedExactly() throws Exception {
        String id = id();
        long big = (1L << 53) + 1; // a double would read it as 2^53
        claim(id, big, Long.MAX_VALUE, 1);
        assertThat(index(outcome(id, big - 1, Long.MAX_VALUE, 1, OutcomeKind.SUCCESS)))
                .isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(index(outcome(id, big, Long.MAX_VALUE - 1, 1, OutcomeKind.SUCCESS)))
                .isEqualTo(Indexed.OTHER_PURCHASE);
        assertThat(index(outcome(id, big, Long.MAX_VALUE, 1, OutcomeKind.SUCCESS)))
                .isEqualTo(Indexed.WRITTEN);
    }

    @Test
    void eachEntryLivesByWhatItIs_countedFromItsDecision() throws Exception {
        String claimed = id();
        claim(claimed, 30, 3, 1);
        assertThat(redis.pttl(keys.purchaseStatus(claimed)))
                .as("a claim lives the pending bound: a command that never reached the stream is not PENDING for days")
                .isBetween(PENDING.toMillis() - 60_000, PENDING.toMillis());
        assertThat(index(outcome(claimed, 30, 3, 1, OutcomeKind.SUCCESS))).isEqualTo(Indexed.WRITTEN);
        assertThat(redis.pttl(keys.purchaseStatus(claimed))).isGreaterThan(PENDING.toMillis());

        String noSale = id();
        Instant now = Instant.now();
        assertThat(index(Outcome.of(noSale, 31, 3, 1, OutcomeKind.REJECTED, "no_sale", 0, now, now, 0, 0)))
                .isEqualTo(Indexed.WRITTEN);
        assertThat(redis.pttl(keys.purchaseStatus(noSale)))
                .as("what a flood of made-up goods leaves lives minutes, not days")
                .isBetween(REJECTED.toMillis() - 60_000, REJECTED.toMillis());

        String old = id(); // a rebuild reads an outcome decided an hour and a half ago: half an hour is left
        Instant then = now.minus(Duration.ofMinutes(90));
        assertThat(index(Outcome.of(old, 32, 3, 1, OutcomeKind.SOLD_OUT, null, 0, then, then, 0, 0)))
                .isEqualTo(Indexed.WRITTEN);
        assertThat(redis.pttl(keys.purchaseStatus(old))).isBetween(29 * 60_000L, 30 * 60_000L);

        String expired = id();
        Instant longAgo = now.minus(DECIDED).minusSeconds(1);
        assertThat(index(Outcome.of(expired, 33, 3, 1, OutcomeKind.SUCCESS, null, 0, longAgo, longAgo, 0, 0)))
                .isEqualTo(Indexed.EXPIRED);
        assertThat(redis.exists(keys.purchaseStatus(expired)))
                .as("a rebuild never brings back what had expired")
                .isFalse();
    }

    @Test
    void aBuyersListHoldsEveryRequestIdTheyBoughtTheGoodsUnder_andNeverGoesBackToPending() throws Exception {
        String first = id();
        String second = id();
        claim(first, 40, 4, 1);
        assertThat(store.purchasesOf(40, 4).get(5, TimeUnit.SECONDS).held())
                .hasEntrySatisfying(first, v -> assertThat(v).startsWith("PENDING@"));
        assertThat(redis.pttl(keys.buyerPurchases(40, 4)))
                .as("a list of claims only lives the pending bound")
                .isBetween(1L, PENDING.toMillis());
        index(outcome(first, 40, 4, 1, OutcomeKind.SUCCESS));
        index(outcome(second, 40, 4, 1, OutcomeKind.DUPLICATE)); // a gateway-made id: no claim before it
        claim(second, 40, 4, 1); // a late claim of a decided purchase
        assertThat(store.purchasesOf(40, 4).get(5, TimeUnit.SECONDS).held())
                .containsOnly(entry(first, "SUCCESS"), entry(second, "DUPLICATE"));
        assertThat(store.purchasesOf(40, 5).get(5, TimeUnit.SECONDS).held())
                .as("another buyer's list")
                .isEmpty();
        assertThat(redis.pttl(keys.buyerPurchases(40, 4))).isGreaterThan(PENDING.toMillis());
        Instant now = Instant.now();
        index(Outcome.of(id(), 40, 4, 1, OutcomeKind.REJECTED, "invalid", 0, now, now, 0, 0));
        assertThat(redis.pttl(keys.buyerPurchases(40, 4)))
                .as("a short-lived entry never shortens the list's life")
                .isGreaterThan(PENDING.toMillis());
    }
}
