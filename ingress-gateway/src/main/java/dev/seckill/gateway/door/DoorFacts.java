package dev.seckill.gateway.door;

import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.PurchaseStatusStore;
import io.vertx.core.Context;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * What the {@link Door}'s checks ask of the gateway, and all they ask: narrow enough that its unit test answers it
 * without a server ({@code DoorTest}). {@link #of} is the running gateway's.
 */
interface DoorFacts {
    /** The rate limit this purchase is over, or null. */
    RateLimiter.Limited limited(long goodsId, long userId);

    /** The purchase this gateway accepted under {@code requestId} recently, or null. */
    RecentIds.Accepted accepted(String requestId);

    /** The answer to the owner's retry of a purchase a draw holds: WAITING_DRAW with its entry, as first accepted. */
    Reply waitingDraw(String requestId, RecentIds.Accepted first, long nowMs, String kind);

    long nowMs();

    /** Why {@code goodsId}'s sale window refuses a purchase now ({@code not_started}, {@code ended}), or null. */
    String outsideWindow(long goodsId, long nowMs);

    /** A drawn sale of {@code goodsId} takes registrations now (before its start). */
    boolean registering(long goodsId, long nowMs);

    /** {@code goodsId} is known sold out (its sold-out mark). */
    boolean knownSoldOut(long goodsId);

    /** A gateway issued {@code requestId}. */
    boolean issued(String requestId);

    /** The status store's view of a client's requestId at the door. */
    CompletionStage<PurchaseStatusStore.Found> lookupAtDoor(String requestId);

    /** Counts an answer given at the door ({@code seckill_gateway_short_circuits{kind}}). */
    void shortCircuited(String kind);

    /** Counts a rate-limited purchase ({@code seckill_gateway_rate_limited{scope}}). */
    void rateLimited(String scope);

    /** Where the checks after a deferred one run: the request's event loop. */
    Executor loop();

    /** The running gateway's facts. */
    static DoorFacts of(GatewayWiring w) {
        return new Wired(w);
    }

    /** {@link DoorFacts} read from the running gateway's parts. */
    final class Wired implements DoorFacts {
        private final GatewayWiring w;

        Wired(GatewayWiring w) {
            this.w = w;
        }

        @Override
        public RateLimiter.Limited limited(long goodsId, long userId) {
            return w.limiter().check(goodsId, userId);
        }

        @Override
        public RecentIds.Accepted accepted(String requestId) {
            return w.acceptedIds().accepted(requestId);
        }

        @Override
        public Reply waitingDraw(String requestId, RecentIds.Accepted first, long nowMs, String kind) {
            return WaitingDraws.reply(
                    w.view().draws(),
                    202,
                    requestId,
                    first.purchase().goodsId(),
                    first.draw(),
                    first.entry(),
                    nowMs,
                    kind);
        }

        @Override
        public long nowMs() {
            return w.clock().millis();
        }

        @Override
        public String outsideWindow(long goodsId, long nowMs) {
            return w.windows().reject(goodsId, nowMs);
        }

        @Override
        public boolean registering(long goodsId, long nowMs) {
            return w.view().draws().registering(goodsId, nowMs);
        }

        @Override
        public boolean knownSoldOut(long goodsId) {
            return w.view().knownSoldOut(goodsId);
        }

        @Override
        public boolean issued(String requestId) {
            return w.ids().issued(requestId);
        }

        @Override
        public CompletionStage<PurchaseStatusStore.Found> lookupAtDoor(String requestId) {
            return w.store().lookupAtDoor(requestId);
        }

        @Override
        public void shortCircuited(String kind) {
            w.metrics().counter("seckill_gateway_short_circuits", "kind", kind).increment();
        }

        @Override
        public void rateLimited(String scope) {
            w.metrics().counter("seckill_gateway_rate_limited", "scope", scope).increment();
        }

        @Override
        public Executor loop() {
            Context context = w.vertx().getOrCreateContext();
            return task -> context.runOnContext(v -> task.run());
        }
    }
}
