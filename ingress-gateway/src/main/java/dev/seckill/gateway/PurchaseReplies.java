package dev.seckill.gateway;

import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.status.PurchaseStatus;
import io.vertx.core.json.JsonObject;
import org.apache.kafka.common.KafkaException;

/** The purchase routes' answers that say more than a status: a decided outcome, a 503 that may have been taken, a reused requestId. */
final class PurchaseReplies {
    private PurchaseReplies() {}

    /** The outcome as {@code GET} shows it to its owner: every field of the outcome, and {@code status}. */
    static String outcomeBody(Outcome o) {
        return new JsonObject(PurchaseStatus.encode(o))
                .put("status", o.outcome().name())
                .encode();
    }

    /**
     * 503 for a purchase Kafka did not acknowledge. A timed-out send may still have been appended (and then decided),
     * so the body carries the requestId, the gateway's own when the client sent none: the buyer can look it up and retry
     * with it, and a retry with the same requestId is decided at most once. {@code Retry-After} says when to try again.
     */
    static Reply unavailable(String requestId, Throwable cause) {
        String error = cause instanceof RuntimeException && !(cause instanceof KafkaException)
                ? "Kafka cannot take the command now"
                : "Kafka did not acknowledge the command in time";
        return Reply.of(
                        503,
                        new JsonObject()
                                .put("error", error)
                                .put("reason", cause.getClass().getSimpleName())
                                .put("requestId", requestId)
                                .put("status", "UNKNOWN")
                                .put("retryAfterSeconds", PurchaseRoute.RETRY_AFTER_SECONDS)
                                .put(
                                        "hint",
                                        "the command may still have been accepted: retry with this requestId, or look it up"),
                        "kafka_unavailable")
                .withHeader("Retry-After", Long.toString(PurchaseRoute.RETRY_AFTER_SECONDS));
    }

    /**
     * A requestId the gateway holds for another purchase. Another buyer's: 409 naming only the requestId (nothing of
     * their purchase is told; the stream would take it for a retry of theirs, and this buyer would get 202 and no
     * outcome). The same buyer's with another goods or quantity: 422 naming the field that differs, as the IETF
     * Idempotency-Key draft answers a key reused with another payload. Either way: send it again with a new requestId.
     */
    static Reply reused(String requestId, String differs) {
        boolean otherBuyer = differs.equals("userId");
        return Reply.of(
                otherBuyer ? 409 : 422,
                new JsonObject()
                        .put(
                                "error",
                                "requestId " + requestId + " is already used by another purchase"
                                        + (otherBuyer ? "" : " (another " + differs + ")")
                                        + "; choose a new requestId")
                        .put("field", otherBuyer ? "requestId" : differs)
                        .put("requestId", requestId),
                otherBuyer ? "request_id_conflict" : "request_id_reused");
    }
}
