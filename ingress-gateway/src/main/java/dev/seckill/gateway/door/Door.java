package dev.seckill.gateway.door;

import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.Payload;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
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

    private final DoorFacts facts;
    private final List<Function<Attempt, Verdict>> checks =
            List.of(this::rateLimit, this::requestIdOwner, this::saleWindow, this::soldOut);

    /** The door of the running gateway. */
    Door(GatewayWiring wiring) {
        this(DoorFacts.of(wiring));
    }

    /** A door asking {@code facts} (a test's). */
    Door(DoorFacts facts) {
        this.facts = facts;
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
                Executor loop = facts.loop();
                d.later()
                        .thenAccept(later -> loop.execute(() -> {
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
                facts.limited(a.request().goodsId(), a.request().userId());
        if (limited == null) return PASS;
        facts.rateLimited(limited.scope());
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
        RecentIds.Accepted first = facts.accepted(requestId);
        if (first == null) return PASS;
        Payload held = first.purchase();
        String differs = held.differingField(a.request().payload());
        if (differs != null) return new Verdict.Answer(Replies.reused(requestId, differs));
        if (a.waitSeconds() > 0) return new Verdict.AwaitOutcome(requestId, "retry_accepted");
        if (first.draw() != null)
            return new Verdict.Answer(facts.waitingDraw(requestId, first, facts.nowMs(), "retry_accepted"));
        return new Verdict.Answer(Replies.pending(202, requestId, "retry_accepted"));
    }

    private Verdict saleWindow(Attempt a) {
        long now = facts.nowMs();
        String outside = facts.outsideWindow(a.request().goodsId(), now);
        if (outside == null) return PASS;
        // a registration is a purchase before the start: it goes to the stream, which holds it for the draw
        if (outside.equals("not_started") && facts.registering(a.request().goodsId(), now)) return PASS;
        facts.shortCircuited(outside);
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
        if (!facts.knownSoldOut(a.request().goodsId())) return PASS;
        String requestId = a.request().requestId();
        if (requestId == null) return soldOutAnswer(a);
        if (facts.issued(requestId)) return PASS;
        return new Verdict.Deferred(facts.lookupAtDoor(requestId)
                .handle((found, error) ->
                        // a store that lost writes and is catching up cannot say the id is new: the stream decides
                        error == null && found.status() instanceof PurchaseStatus.Unknown && found.sureOfAbsence()
                                ? soldOutAnswer(a)
                                : PASS));
    }

    private Verdict soldOutAnswer(Attempt a) {
        facts.shortCircuited("sold_out");
        return new Verdict.Answer(Replies.soldOut(a.request().goodsId()));
    }
}
