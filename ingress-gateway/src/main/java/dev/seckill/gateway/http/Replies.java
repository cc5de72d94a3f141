package dev.seckill.gateway.http;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.DrawWait;
import dev.seckill.gateway.status.EntryReceipt;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.apache.kafka.common.KafkaException;

/**
 * Every answer of the purchase routes ({@code POST /api/purchases}, {@code GET /api/purchases/{id}},
 * {@code GET /api/purchases?goodsId=}), body and counting kind, in one place: the routes decide which, this says what
 * it reads. (The payment provider's route keeps its own, {@code PaymentRoute}.)
 */
public final class Replies {
    /** Retry-After on a 503: a broker failover, a full producer buffer or a rebuilding store is over within seconds. */
    public static final long RETRY_AFTER_SECONDS = 1;

    private Replies() {}

    /** A 401 saying why, with the {@code WWW-Authenticate: Bearer} challenge. */
    public static Reply unauthenticated(String error, String kind) {
        return Problem.UNAUTHENTICATED.reply(error, kind).withHeader("WWW-Authenticate", "Bearer");
    }

    /** A 400 naming the bad field. */
    public static Reply invalid(String message, String field) {
        return Problem.INVALID.reply(Problem.INVALID.body(message).put("field", field), "invalid");
    }

    /** 403: the body names another buyer than the token's. */
    public static Reply forbidden(String message) {
        return Problem.FORBIDDEN.reply(Problem.FORBIDDEN.body(message).put("field", "userId"), "forbidden");
    }

    /** 503 while the gateway drains before it stops: retry at once, on another replica behind the same address. */
    public static Reply shuttingDown() {
        return Problem.SHUTTING_DOWN
                .reply("gateway is shutting down", "shutting_down")
                .withHeader("Retry-After", "1");
    }

    /** 429 with Retry-After; {@code what} qualifies the scope in the error ("" for purchases). */
    public static Reply rateLimited(RateLimiter.Limited limited, String what, String kind) {
        return Problem.RATE_LIMITED
                .reply(
                        Problem.RATE_LIMITED
                                .body("rate limited (" + what + limited.scope() + ")")
                                .put("retryAfterSeconds", limited.retryAfterSeconds()),
                        kind)
                .withHeader("Retry-After", Long.toString(limited.retryAfterSeconds()));
    }

    /** 200 REJECTED at the door: the purchase is outside the goods' sale window ({@code reason}). */
    public static Reply outsideWindow(long goodsId, String reason) {
        return Reply.of(
                200,
                new JsonObject().put("status", "REJECTED").put("reason", reason).put("goodsId", goodsId),
                "rejected_" + reason);
    }

    /** 200 SOLD_OUT at the door. */
    public static Reply soldOut(long goodsId) {
        return Reply.of(200, new JsonObject().put("status", "SOLD_OUT").put("goodsId", goodsId), "sold_out");
    }

    /**
     * A purchase accepted and not decided yet ({@code kind}: 202 on a POST, 200 on a GET). The body is written
     * directly: it is every 202, and a requestId is a UUID or passed {@code CommandRules.validRequestId}
     * ({@code [A-Za-z0-9._:-]}), so it never needs escaping.
     */
    public static Reply pending(int status, String requestId, String kind) {
        return new Reply(status, pendingBody(requestId), kind, Map.of());
    }

    /**
     * A purchase a drawn sale's draw holds, not decided yet (docs/contracts.md, "The draw"): it waits for the draw, which
     * runs once the window has closed ({@code drawClosesAt}) and the beacon round {@code beaconRound} is published after
     * the cutoff. {@code entry} (null: left out) is where the broker appended the purchase — {@code {"partition",
     * "offset","appendedAt"}} — for the buyer to find their leaf in the draw's entry digest; {@code drawDelayed} (null:
     * left out) says why a draw late past its cutoff has not run. {@code beaconRound} is left out when not known.
     */
    public static Reply waitingDraw(
            int status, String requestId, DrawWait draw, EntryReceipt entry, String drawDelayed, String kind) {
        JsonObject body = new JsonObject()
                .put("requestId", requestId)
                .put("status", "WAITING_DRAW")
                .put("drawClosesAt", draw.closesAt().toString());
        if (draw.beaconRound() != null) body.put("beaconRound", draw.beaconRound());
        if (entry != null) body.put("entry", entry.json());
        if (drawDelayed != null) body.put("drawDelayed", drawDelayed);
        return Reply.of(status, body, kind);
    }

    public static String pendingBody(String requestId) {
        return "{\"requestId\":\"" + requestId + "\",\"status\":\"PENDING\"}";
    }

    /** 200 with the outcome as its owner sees it: every field of the outcome, and {@code status}. */
    public static Reply decided(Outcome o, String kind) {
        return Reply.of(
                200,
                new JsonObject(PurchaseStatus.encode(o))
                        .put("status", o.outcome().name()),
                kind);
    }

    /** 200 with the outcome only, never whose it is, what or how many: to a GET without a token. */
    public static Reply decidedAnonymous(String requestId, Outcome o) {
        JsonObject body = new JsonObject()
                .put("requestId", requestId)
                .put("status", o.outcome().name());
        if (o.reason() != null) body.put("reason", o.reason());
        return Reply.of(200, body, "status_decided");
    }

    /**
     * 503 for a purchase Kafka did not acknowledge. A timed-out send may still have been appended (and then decided),
     * so the body carries the requestId, the gateway's own when the client sent none: the buyer can look it up and retry
     * with it, and a retry with the same requestId is decided at most once. {@code Retry-After} says when to try again.
     */
    public static Reply unavailable(String requestId, Throwable cause) {
        String error = cause instanceof RuntimeException && !(cause instanceof KafkaException)
                ? "Kafka cannot take the command now"
                : "Kafka did not acknowledge the command in time";
        return Problem.UNKNOWN
                .reply(
                        Problem.UNKNOWN
                                .body(error)
                                .put("reason", cause.getClass().getSimpleName())
                                .put("requestId", requestId)
                                .put("purchaseStatus", "UNKNOWN")
                                .put("retryAfterSeconds", RETRY_AFTER_SECONDS)
                                .put(
                                        "hint",
                                        "the command may still have been accepted: retry with this requestId, or look it up"),
                        "kafka_unavailable")
                .withHeader("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
    }

    /**
     * A requestId the gateway holds for another purchase. Another buyer's: 409 naming only the requestId (nothing of
     * their purchase is told; the stream would take it for a retry of theirs, and this buyer would get 202 and no
     * outcome). The same buyer's with another goods or quantity: 422 naming the field that differs, as the IETF
     * Idempotency-Key draft answers a key reused with another payload. Either way: send it again with a new requestId.
     */
    public static Reply reused(String requestId, String differs) {
        boolean otherBuyer = differs.equals("userId");
        Problem p = otherBuyer ? Problem.REQUEST_ID_CONFLICT : Problem.REQUEST_ID_REUSED;
        return p.reply(
                p.body("requestId " + requestId + " is already used by another purchase"
                                + (otherBuyer ? "" : " (another " + differs + ")")
                                + "; choose a new requestId")
                        .put("field", otherBuyer ? "requestId" : differs)
                        .put("requestId", requestId),
                otherBuyer ? "request_id_conflict" : "request_id_reused");
    }

    /**
     * 503: the store cannot say whether this purchase exists — Redis did not answer, or it lost writes and is being
     * rebuilt from the outcome topics ({@code why}) — or too many requests wait already. Ask again shortly.
     */
    public static Reply cannotTell(String requestId, String why, String kind) {
        JsonObject body = Problem.UNKNOWN
                .body(why)
                .put("purchaseStatus", "UNKNOWN")
                .put("retryAfterSeconds", RETRY_AFTER_SECONDS);
        if (requestId != null) body.put("requestId", requestId);
        return Problem.UNKNOWN
                .reply(body, "status_" + kind)
                .withHeader("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
    }

    /** Never accepted, or another buyer's: the same 404, nothing of whose it is or what it was. */
    public static Reply notFound(String requestId, Long caller) {
        return Problem.NOT_FOUND.reply(
                Problem.NOT_FOUND
                        .body("no purchase with this requestId" + (caller != null ? " for this buyer" : ""))
                        .put("requestId", requestId),
                "status_not_found");
    }

    /** 404 NOT_RECEIVED: an id a gateway issued, long enough ago that the pipeline would have decided it. */
    public static Reply notReceived(String requestId, long pendingBoundMs) {
        return Problem.NOT_RECEIVED.reply(
                Problem.NOT_RECEIVED
                        .body("no purchase with this requestId reached the pipeline within "
                                + pendingBoundMs / 1000
                                + " s of its acceptance; it was not decided: send the purchase again")
                        .put("requestId", requestId)
                        .put("purchaseStatus", "NOT_RECEIVED"),
                "status_not_received");
    }

    /** 200: a buyer's purchases of a goods ({@code BuyerPurchases.body}). */
    public static Reply purchaseList(JsonObject body) {
        return Reply.of(200, body, "status_list");
    }

    /** 415: forms and uploads are refused, naming what the door takes. */
    public static Reply notJson() {
        return Problem.UNSUPPORTED_MEDIA_TYPE
                .reply(
                        Problem.UNSUPPORTED_MEDIA_TYPE
                                .body("the body must be JSON (Content-Type: application/json); forms and file uploads"
                                        + " are not accepted")
                                .put("field", "body"),
                        "unsupported_media_type")
                .withHeader("Accept", "application/json");
    }
}
