package dev.seckill.gateway.door;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.DrawWait;
import dev.seckill.gateway.status.Payload;
import dev.seckill.gateway.status.PurchaseStatus;
import dev.seckill.gateway.status.PurchaseStatusStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each verdict of the {@link Door}, from facts a test states (no server): the rate limit first, then a requestId this
 * gateway accepted, the sale window, the sold-out mark — and a sold-out goods' requestId the pipeline may have decided
 * going on unless the status store is sure it never saw it.
 */
@Tag("fast")
class DoorTest {
    static final long GOODS = 7;
    static final long USER = 11;

    /** The facts of one test: what it sets is what the door is told; what the door counts is kept. */
    static final class Facts implements DoorFacts {
        RateLimiter.Limited limited;
        final Map<String, RecentIds.Accepted> accepted = new HashMap<>();
        String outside;
        boolean registering;
        boolean soldOut;
        final Set<String> issued = new HashSet<>();
        CompletionStage<PurchaseStatusStore.Found> store =
                CompletableFuture.failedFuture(new AssertionError("the store was not to be asked"));
        final List<String> counted = new ArrayList<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public RateLimiter.Limited limited(long goodsId, long userId) {
            asked.add("limit");
            return limited;
        }

        @Override
        public RecentIds.Accepted accepted(String requestId) {
            asked.add("accepted");
            return accepted.get(requestId);
        }

        @Override
        public Reply waitingDraw(String requestId, RecentIds.Accepted first, long nowMs, String kind) {
            return Reply.of(202, new io.vertx.core.json.JsonObject().put("status", "WAITING_DRAW"), kind);
        }

        @Override
        public long nowMs() {
            return 1_000;
        }

        @Override
        public String outsideWindow(long goodsId, long nowMs) {
            asked.add("window");
            return outside;
        }

        @Override
        public boolean registering(long goodsId, long nowMs) {
            return registering;
        }

        @Override
        public boolean knownSoldOut(long goodsId) {
            asked.add("soldOut");
            return soldOut;
        }

        @Override
        public boolean issued(String requestId) {
            return issued.contains(requestId);
        }

        @Override
        public CompletionStage<PurchaseStatusStore.Found> lookupAtDoor(String requestId) {
            asked.add("store");
            return store;
        }

        @Override
        public void shortCircuited(String kind) {
            counted.add("short:" + kind);
        }

        @Override
        public void rateLimited(String scope) {
            counted.add("limited:" + scope);
        }

        @Override
        public Executor loop() {
            return Runnable::run;
        }
    }

    final Facts facts = new Facts();

    static Door.Attempt attempt(String requestId, int quantity, int waitSeconds) {
        return new Door.Attempt(null, 0, "t", new PurchaseRequest(requestId, GOODS, USER, quantity), waitSeconds);
    }

    Door.Verdict judge(Door.Attempt a) {
        List<Door.Verdict> out = new ArrayList<>();
        new Door(facts).judge(a, out::add);
        assertThat(out).as("one verdict, given once").hasSize(1);
        return out.get(0);
    }

    static Reply answer(Door.Verdict v) {
        assertThat(v).isInstanceOf(Door.Verdict.Answer.class);
        return ((Door.Verdict.Answer) v).reply();
    }

    @Test
    void givenNothingStopsIt_itPasses_afterAskingEveryCheckInOrder() {
        assertThat(judge(attempt("r-1", 1, 0))).isSameAs(Door.PASS);
        assertThat(facts.asked).containsExactly("limit", "accepted", "window", "soldOut");
        assertThat(facts.counted).isEmpty();
    }

    @Test
    void givenABuyerOverTheLimit_429WithRetryAfter_andNothingElseAsked() {
        facts.limited = new RateLimiter.Limited("user", 3);
        facts.soldOut = true;
        Reply r = answer(judge(attempt("r-1", 1, 0)));
        assertThat(r.status()).isEqualTo(429);
        assertThat(r.headers()).containsEntry("Retry-After", "3");
        assertThat(facts.asked).containsExactly("limit");
        assertThat(facts.counted).containsExactly("limited:user");
    }

    @Test
    void givenTheSamePurchaseAcceptedBefore_itsRetryIs202Again_orAwaitsTheOutcomeWithAWait() {
        facts.accepted.put("r-1", new RecentIds.Accepted(new Payload(GOODS, USER, 1), 0, null, null));
        Reply again = answer(judge(attempt("r-1", 1, 0)));
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.kind()).isEqualTo("retry_accepted");
        assertThat(again.json()).contains("PENDING");
        assertThat(judge(attempt("r-1", 1, 5))).isEqualTo(new Door.Verdict.AwaitOutcome("r-1", "retry_accepted"));
    }

    @Test
    void givenTheIdUsedForAnotherQuantity_422_forAnotherBuyer_409() {
        facts.accepted.put("r-1", new RecentIds.Accepted(new Payload(GOODS, USER, 1), 0, null, null));
        assertThat(answer(judge(attempt("r-1", 2, 0))).status()).isEqualTo(422);
        facts.accepted.put("r-2", new RecentIds.Accepted(new Payload(GOODS, USER + 1, 1), 0, null, null));
        assertThat(answer(judge(attempt("r-2", 1, 0))).status()).isEqualTo(409);
    }

    @Test
    void givenAPurchaseADrawHolds_itsRetryIsWaitingDraw() {
        facts.accepted.put(
                "r-1",
                new RecentIds.Accepted(
                        new Payload(GOODS, USER, 1),
                        0,
                        new DrawWait(Instant.ofEpochMilli(2_000), Instant.ofEpochMilli(2_500), null),
                        null));
        assertThat(answer(judge(attempt("r-1", 1, 0))).json()).contains("WAITING_DRAW");
    }

    @Test
    void givenASaleNotStartedOrEnded_REJECTEDWithItsReason_unlessADrawTakesRegistrations() {
        facts.outside = "ended";
        Reply ended = answer(judge(attempt(null, 1, 0)));
        assertThat(ended.status()).isEqualTo(200);
        assertThat(ended.json()).contains("REJECTED").contains("ended");
        assertThat(facts.counted).containsExactly("short:ended");

        facts.outside = "not_started";
        facts.registering = true;
        assertThat(judge(attempt(null, 1, 0))).isSameAs(Door.PASS);
        facts.registering = false;
        assertThat(answer(judge(attempt(null, 1, 0))).json()).contains("not_started");
    }

    @Test
    void givenASoldOutGoods_aPurchaseWithoutAnId_isSOLD_OUT_oneAGatewayIssued_goesOn() {
        facts.soldOut = true;
        Reply r = answer(judge(attempt(null, 1, 0)));
        assertThat(r.json()).contains("SOLD_OUT");
        assertThat(facts.counted).containsExactly("short:sold_out");
        facts.issued.add("g-1");
        assertThat(judge(attempt("g-1", 1, 0))).isSameAs(Door.PASS);
        assertThat(facts.asked).doesNotContain("store");
    }

    @Test
    void givenASoldOutGoods_aClientsId_isSOLD_OUTOnlyWhenTheStoreIsSureItNeverSawIt() {
        facts.soldOut = true;
        facts.store = CompletableFuture.completedFuture(
                new PurchaseStatusStore.Found(new PurchaseStatus.Unknown(), true, false));
        assertThat(answer(judge(attempt("c-1", 1, 0))).json()).contains("SOLD_OUT");

        // a store catching up after losing writes, or just after a loss, cannot say the id is new
        facts.store = CompletableFuture.completedFuture(
                new PurchaseStatusStore.Found(new PurchaseStatus.Unknown(), false, false));
        assertThat(judge(attempt("c-2", 1, 0))).isSameAs(Door.PASS);
        facts.store = CompletableFuture.completedFuture(
                new PurchaseStatusStore.Found(new PurchaseStatus.Unknown(), true, true));
        assertThat(judge(attempt("c-3", 1, 0))).isSameAs(Door.PASS);
        // Redis did not answer: the stream decides
        facts.store = CompletableFuture.failedFuture(new IllegalStateException("redis down"));
        assertThat(judge(attempt("c-4", 1, 0))).isSameAs(Door.PASS);
    }
}
