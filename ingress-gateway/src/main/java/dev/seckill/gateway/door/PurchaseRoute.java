package dev.seckill.gateway.door;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.gateway.GatewayWiring;
import dev.seckill.gateway.auth.BuyerTokens;
import dev.seckill.gateway.http.AcceptSpans;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.RequestRecordSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.http.TraceLog;
import dev.seckill.gateway.readside.DrawWindows;
import dev.seckill.gateway.status.DrawWait;
import dev.seckill.gateway.status.EntryReceipt;
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
 *
 * <p>A purchase of a goods whose draw has not run ({@link DrawWindows#holding}) is held by the stream until it has: the
 * 202 says {@code WAITING_DRAW} ({@link WaitingDraws}), with the beacon round and where the broker appended it (the
 * acknowledgment's partition, offset and append time: every 202 of an accepted purchase, a {@code Prefer: wait} that
 * ran out included, is answered after it). Its requestId stays claimed, and its GET answers WAITING_DRAW, until the
 * draw is due and the pending bound after it: a client's claim lives that long, an id the gateway issues says the draw
 * ({@code GeneratedIds#nextHeld}).
 */
public final class PurchaseRoute implements Handler<RoutingContext> {
    /** The route this class serves (its spans are named by it). */
    static final String PURCHASES_ROUTE = "/api/purchases";

    private static final Logger LOG = LoggerFactory.getLogger(PurchaseRoute.class);

    private final GatewayWiring w;
    private final Responder responder;
    private final RequestRecordSender sender;
    private final Door door;
    private final BuyerTokens tokens;

    public PurchaseRoute(GatewayWiring wiring, Responder responder, RequestRecordSender sender, BuyerTokens tokens) {
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
            else if (verdict instanceof Door.Verdict.AwaitOutcome retry) awaitRetry(a, retry);
            else if (a.request().requestId() != null) claimThenSend(a);
            else {
                long now = w.clock().millis();
                DrawWait draw = drawOf(a, now);
                send(a, draw == null ? issue(a.request(), now) : w.ids().nextHeld(now, draw), draw);
            }
        });
    }

    /** The id the gateway makes for a purchase that named none (for a goods in buckets, one its buyer's bucket claims). */
    private String issue(PurchaseRequest r, long nowMs) {
        return w.view().buckets().issue(r.goodsId(), r.userId(), () -> w.ids().next(nowMs));
    }

    /** The draw that will hold this purchase, accepted now ({@code nowMs}); null: it is decided as it comes. */
    private DrawWait drawOf(Door.Attempt a, long nowMs) {
        DrawFacts d = w.view().draws().holding(a.request().goodsId(), Instant.ofEpochMilli(nowMs));
        return d == null ? null : DrawWait.of(d);
    }

    /** The owner's retry with {@code Prefer: wait}: held like the first send, its draw and entry as this gateway kept them. */
    private void awaitRetry(Door.Attempt a, Door.Verdict.AwaitOutcome retry) {
        RecentIds.Accepted first = w.acceptedIds().accepted(retry.requestId());
        awaitOutcome(
                a,
                retry.requestId(),
                retry.kind(),
                first == null ? null : first.draw(),
                first == null ? null : first.entry());
    }

    /**
     * A client-chosen requestId is claimed in the status store before its command is sent, the claim carrying the
     * purchase: an id held for another purchase is refused before anything reaches Kafka. When Redis cannot answer,
     * the purchase goes on (Kafka and the stream's dedupe by goods and requestId hold the truth; only the
     * cross-instance refusal and the status entry are lost) and the miss is counted.
     */
    private void claimThenSend(Door.Attempt a) {
        PurchaseRequest r = a.request();
        Instant now = w.clock().instant();
        DrawWait draw = drawOf(a, now.toEpochMilli()); // a held purchase's claim lives until its draw is due
        if (w.windows().knownWithoutSale(r.goodsId(), now.toEpochMilli())) {
            send(a, r.requestId(), draw); // no sale: nothing to guard, and a flood of made-up goods writes nothing
            return;
        }
        Context context = w.vertx().getOrCreateContext();
        w.store()
                .claim(new PurchaseStatus.Pending(r.requestId(), r.goodsId(), r.userId(), r.quantity(), now, draw))
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
                        send(a, r.requestId(), draw);
                    }
                }));
    }

    /** Sends the purchase under {@code requestId}; {@code draw}: the draw that holds it (null: none). */
    private void send(Door.Attempt a, String requestId, DrawWait draw) {
        PurchaseRequest r = a.request();
        Purchase command = new Purchase(
                requestId, r.goodsId(), r.userId(), r.quantity(), w.clock().instant());
        // a bucketed goods' purchase straight to the bucket that claims its id; a held one to the home, where its draw
        // is
        Integer partition = draw == null ? w.view().buckets().partitionOf(r.goodsId(), requestId) : null;
        ProducerRecord<String, byte[]> record =
                new ProducerRecord<>(w.topics().commands(), partition, command.key(), CommandCodec.encode(command));
        AcceptSpans spans =
                AcceptSpans.start(a.ctx(), PURCHASES_ROUTE, record.topic(), r.goodsId(), requestId, record.headers());
        TraceHeaders.put(record.headers(), spans.traceId(a.ctx(), a.traceId()));
        // nothing is written for the status on this path: the status indexer takes the purchase from its outcome, and
        // a GET before that knows the id as one a gateway issued (GeneratedIds) or claimed (claimThenSend)
        sender.send(
                record,
                acked -> {
                    spans.acked();
                    EntryReceipt entry = draw == null ? null : EntryReceipt.of(acked);
                    // a held purchase is remembered whoever chose its id: its retry and GET here carry its entry
                    if (r.requestId() != null || draw != null) w.acceptedIds().add(requestId, r.payload(), draw, entry);
                    if (a.waitSeconds() > 0) awaitOutcome(a, requestId, "accepted", draw, entry);
                    else answer(a, pending(a, requestId, "accepted", draw, entry));
                },
                error -> {
                    spans.failed(error);
                    TraceLog.warn(
                            LOG, a.traceId(), spans.span(), "Kafka did not take {}: {}", requestId, error.getMessage());
                    answer(a, Replies.unavailable(requestId, error));
                });
    }

    /**
     * Holds the reply until the outcome of this purchase is known (200 with it) or the preferred wait is over (202
     * PENDING, or WAITING_DRAW with its entry for a purchase a draw holds); an outcome of another purchase under the
     * same requestId is not this one's answer.
     */
    private void awaitOutcome(Door.Attempt a, String requestId, String kind, DrawWait draw, EntryReceipt entry) {
        if (w.waiters().waiting() >= w.config().maxWaiters()) { // accepted all the same: answered now, not held
            answer(a, pending(a, requestId, kind, draw, entry));
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
                                a, pending(a, requestId, kind, draw, entry).withHeader("Preference-Applied", applied)));
    }

    /** 202 PENDING; WAITING_DRAW for a purchase a draw holds ({@link WaitingDraws}: its entry when known). */
    private Reply pending(Door.Attempt a, String requestId, String kind, DrawWait draw, EntryReceipt entry) {
        return draw == null
                ? Replies.pending(202, requestId, kind)
                : WaitingDraws.reply(
                        w.view().draws(),
                        202,
                        requestId,
                        a.request().goodsId(),
                        draw,
                        entry,
                        w.clock().millis(),
                        kind);
    }

    private static String applied(Door.Attempt a) {
        return "wait=" + a.waitSeconds();
    }

    private void answer(Door.Attempt a, Reply reply) {
        responder.reply(a.ctx(), reply, a.start());
    }
}
