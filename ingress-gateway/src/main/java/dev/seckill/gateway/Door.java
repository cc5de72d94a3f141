package dev.seckill.gateway;

import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.Payload;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.core.Context;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The door: every check a parsed purchase meets before it is claimed and sent, in order — rate limits, a requestId this
 * gateway accepted, the sale window, the sold-out mark — each answering a {@link Verdict}. A check that must ask Redis
 * answers {@link Verdict.Deferred}, and the checks after it run once it has answered, whichever place it has. The door
 * answers only what the stream would (docs/security.md, "The door decides nothing it cannot take back").
 */
final class Door {
    /** A request that passed authentication and parsing ({@link PurchaseIntake}), facing the door. */
    record Attempt(RoutingContext ctx, long start, String traceId, PurchaseRequest request, int waitSeconds) {}

    /** What a check, or the door as a whole, says of an attempt. */
    sealed interface Verdict {
        /** Let it through: the next check, or, after the last, the claim and the send. */
        record Pass() implements Verdict {}

        /** Stop it here with this answer. */
        record Answer(Reply reply) implements Verdict {}

        /**
         * The owner's retry of a purchase this gateway accepted, with {@code Prefer: wait}: nothing to send, the answer
         * held until its outcome is known ({@code kind}: what it is counted as).
         */
        record AwaitOutcome(String requestId, String kind) implements Verdict {}

        /** The check asked the status store: its verdict when that answers (never failing). */
        record Deferred(CompletionStage<Verdict> later) implements Verdict {}
    }

    static final Verdict PASS = new Verdict.Pass();

    private final GatewayWiring w;
    private final List<Function<Attempt, Verdict>> checks =
            List.of(this::rateLimit, this::requestIdOwner, this::saleWindow, this::soldOut);

    Door(GatewayWiring wiring) {
        this.w = wiring;
    }

    /**
     * Runs the checks in order and gives {@code then}, on the request's event loop, the first verdict that is not a
     * pass, or {@link #PASS} when every check passed.
     */
    void judge(Attempt a, Consumer<Verdict> then) {
        judgeFrom(0, a, then);
    }

    private void judgeFrom(int first, Attempt a, Consumer<Verdict> then) {
        for (int i = first; i < checks.size(); i++) {
            Verdict v = checks.get(i).apply(a);
            if (v instanceof Verdict.Pass) continue;
            if (v instanceof Verdict.Deferred d) {
                int next = i + 1;
                Context context = w.vertx().getOrCreateContext();
                d.later()
                        .thenAccept(later -> context.runOnContext(x -> {
                            if (later instanceof Verdict.Pass) judgeFrom(next, a, then);
                            else then.accept(later);
                        }));
                return;
            }
            then.accept(v);
            return;
        }
        then.accept(PASS);
    }

    private Verdict rateLimit(Attempt a) {
        RateLimiter.Limited limited =
                w.limiter().check(a.request().goodsId(), a.request().userId());
        if (limited == null) return PASS;
        w.metrics()
                .counter("seckill_gateway_rate_limited", "scope", limited.scope())
                .increment();
        return new Verdict.Answer(Replies.rateLimited(limited, "", "rate_limited"));
    }

    /**
     * A requestId this gateway accepted recently: the same purchase again is the owner's retry (202 again — WAITING_DRAW
     * with its entry for a purchase a draw holds — or its outcome with {@code Prefer: wait}), another purchase under it
     * is refused ({@link Replies#reused}).
     */
    private Verdict requestIdOwner(Attempt a) {
        String requestId = a.request().requestId();
        if (requestId == null) return PASS;
        RecentIds.Accepted first = w.acceptedIds().accepted(requestId);
        if (first == null) return PASS;
        Payload held = first.purchase();
        String differs = held.differingField(a.request().payload());
        if (differs != null) return new Verdict.Answer(Replies.reused(requestId, differs));
        if (a.waitSeconds() > 0) return new Verdict.AwaitOutcome(requestId, "retry_accepted");
        if (first.draw() != null)
            return new Verdict.Answer(WaitingDraws.reply(
                    w.view().draws(),
                    202,
                    requestId,
                    held.goodsId(),
                    first.draw(),
                    first.entry(),
                    w.clock().millis(),
                    "retry_accepted"));
        return new Verdict.Answer(Replies.pending(202, requestId, "retry_accepted"));
    }

    private Verdict saleWindow(Attempt a) {
        long now = w.clock().millis();
        String outside = w.windows().reject(a.request().goodsId(), now);
        if (outside == null) return PASS;
        // a registration is a purchase before the start: it goes to the stream, which holds it for the draw
        if (outside.equals("not_started")
                && w.view().draws().registering(a.request().goodsId(), now)) return PASS;
        w.metrics().counter("seckill_gateway_short_circuits", "kind", outside).increment();
        return new Verdict.Answer(Replies.outsideWindow(a.request().goodsId(), outside));
    }

    /**
     * SOLD_OUT at the door for a goods marked sold out — except for a requestId the pipeline may already have decided:
     * the retry of a 503 ("UNKNOWN: retry with this requestId") whose purchase was appended and may have taken the
     * last unit. The stream answers such a retry with its stored decision, so the door must too: a requestId a gateway
     * issued always goes on, a client's goes on when the status store knows it (claimed or decided), and is answered
     * SOLD_OUT only when it does not (or goes on when Redis cannot say, or the store is rebuilding).
     */
    private Verdict soldOut(Attempt a) {
        if (!w.view().knownSoldOut(a.request().goodsId())) return PASS;
        String requestId = a.request().requestId();
        if (requestId == null) return soldOutAnswer(a);
        if (w.ids().issued(requestId)) return PASS;
        return new Verdict.Deferred(w.store()
                .lookupAtDoor(requestId)
                .handle((found, error) ->
                        // a store that lost writes and is catching up cannot say the id is new: the stream decides
                        error == null && found.status() instanceof PurchaseStatus.Unknown && found.sureOfAbsence()
                                ? soldOutAnswer(a)
                                : PASS));
    }

    private Verdict soldOutAnswer(Attempt a) {
        w.metrics()
                .counter("seckill_gateway_short_circuits", "kind", "sold_out")
                .increment();
        return new Verdict.Answer(Replies.soldOut(a.request().goodsId()));
    }
}
