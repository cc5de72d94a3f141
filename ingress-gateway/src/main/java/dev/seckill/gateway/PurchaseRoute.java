package dev.seckill.gateway;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.RequestRecordSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.http.TraceLog;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/purchases}: authentication and parsing first ({@link PurchaseIntake}: they make the request), then
 * the {@link Door}'s checks, then a client requestId's claim in the status store; a request that passes them is sent to
 * {@code <prefix>commands} and answered 202 once Kafka acknowledged it — or, with {@code Prefer: wait=N}, 200 with its
 * outcome when that is known within N seconds.
 */
final class PurchaseRoute implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(PurchaseRoute.class);

    private final GatewayWiring w;
    private final Responder responder;
    private final RequestRecordSender sender;
    private final Door door;
    private final BuyerTokens tokens;

    PurchaseRoute(GatewayWiring wiring, Responder responder, RequestRecordSender sender, BuyerTokens tokens) {
        this.w = wiring;
        this.tokens = tokens;
        this.responder = responder;
        this.sender = sender;
        this.door = new Door(wiring);
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        String traceId = RequestHeaders.traceId(ctx);
        ctx.response().putHeader("X-Trace-Id", traceId);
        if (!w.accepting().getAsBoolean()) {
            responder.reply(ctx, Replies.shuttingDown(), start);
            return;
        }
        PurchaseIntake.Read read = PurchaseIntake.read(tokens, ctx);
        if (read.refused() != null) {
            responder.reply(ctx, read.refused(), start);
            return;
        }
        int wait = RequestHeaders.preferredWaitSeconds(ctx, w.config().maxWaitSeconds());
        Door.Attempt a = new Door.Attempt(ctx, start, traceId, read.request(), wait);
        door.judge(a, verdict -> {
            if (verdict instanceof Door.Verdict.Answer answer) answer(a, answer.reply());
            else if (verdict instanceof Door.Verdict.AwaitOutcome held)
                awaitOutcome(a, held.requestId(), held.kind(), null);
            else if (a.request().requestId() != null) claimThenSend(a);
            else send(a, w.ids().next(w.clock().millis()));
        });
    }

    /**
     * A client-chosen requestId is claimed in the status store before its command is sent, the claim carrying the
     * purchase: an id held for another purchase is refused before anything reaches Kafka. When Redis cannot answer,
     * the purchase goes on (Kafka and the stream's dedupe by goods and requestId hold the truth; only the
     * cross-instance refusal and the status entry are lost) and the miss is counted.
     */
    private void claimThenSend(Door.Attempt a) {
        PurchaseRequest r = a.request();
        if (w.windows().knownWithoutSale(r.goodsId(), w.clock().millis())) {
            send(a, r.requestId()); // no sale: nothing to guard, and a flood of made-up goods writes nothing
            return;
        }
        Context context = w.vertx().getOrCreateContext();
        w.store()
                .claim(new PurchaseStatus.Pending(
                        r.requestId(),
                        r.goodsId(),
                        r.userId(),
                        r.quantity(),
                        w.clock().instant()))
                .whenComplete((claimed, error) -> context.runOnContext(v -> {
                    if (error != null)
                        w.metrics()
                                .counter("seckill_gateway_status_store_errors")
                                .increment();
                    if (claimed != null && claimed.differs() != null) {
                        answer(a, Replies.reused(r.requestId(), claimed.differs()));
                    } else if (claimed != null
                            && a.waitSeconds() > 0
                            && claimed.previous() instanceof PurchaseStatus.Decided d) {
                        // the retry of a decided purchase: its outcome now (a re-send would emit nothing to wait for)
                        answer(a, Replies.decided(d.outcome(), "decided").withHeader("Preference-Applied", applied(a)));
                    } else {
                        send(a, r.requestId());
                    }
                }));
    }

    private void send(Door.Attempt a, String requestId) {
        PurchaseRequest r = a.request();
        Purchase command = new Purchase(
                requestId, r.goodsId(), r.userId(), r.quantity(), w.clock().instant());
        ProducerRecord<String, byte[]> record =
                new ProducerRecord<>(w.topics().commands(), command.key(), CommandCodec.encode(command));
        TraceHeaders.put(record.headers(), a.traceId());
        // nothing is written for the status on this path: the status indexer takes the purchase from its outcome, and
        // a GET before that knows the id as one a gateway issued (GeneratedIds) or claimed (claimThenSend)
        sender.send(
                record,
                () -> {
                    if (r.requestId() != null) w.acceptedIds().add(requestId, r.payload());
                    if (a.waitSeconds() > 0) awaitOutcome(a, requestId, "accepted", command.acceptedAt());
                    else answer(a, pending(a, requestId, "accepted", command.acceptedAt()));
                },
                error -> {
                    TraceLog.warn(LOG, a.traceId(), "Kafka did not take {}: {}", requestId, error.getMessage());
                    answer(a, Replies.unavailable(requestId, error));
                });
    }

    /**
     * Holds the reply until the outcome of this purchase is known (200 with it) or the preferred wait is over (202
     * PENDING); an outcome of another purchase under the same requestId is not this one's answer.
     */
    private void awaitOutcome(Door.Attempt a, String requestId, String kind, Instant acceptedAt) {
        if (w.waiters().waiting() >= w.config().maxWaiters()) { // accepted all the same: answered now, not held
            answer(a, pending(a, requestId, kind, acceptedAt));
            return;
        }
        String applied = applied(a);
        w.waiters()
                .await(
                        requestId,
                        a.request().payload()::sameAs,
                        a.waitSeconds() * 1000L,
                        o -> answer(a, Replies.decided(o, "decided").withHeader("Preference-Applied", applied)),
                        () -> answer(
                                a, pending(a, requestId, kind, acceptedAt).withHeader("Preference-Applied", applied)));
    }

    /** 202 PENDING; WAITING_DRAW with when the window closes for a purchase accepted inside a lottery's window. */
    private Reply pending(Door.Attempt a, String requestId, String kind, Instant acceptedAt) {
        Instant closes = acceptedAt == null
                ? null
                : w.view().draws().closesAt(a.request().goodsId(), acceptedAt);
        return closes == null
                ? Replies.pending(202, requestId, kind)
                : Replies.waitingDraw(202, requestId, closes, kind);
    }

    private static String applied(Door.Attempt a) {
        return "wait=" + a.waitSeconds();
    }

    private void answer(Door.Attempt a, Reply reply) {
        responder.reply(a.ctx(), reply, a.start());
    }
}
