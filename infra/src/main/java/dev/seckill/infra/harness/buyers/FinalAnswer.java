package dev.seckill.infra.harness.buyers;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * What a buyer was told in the end ({@link BuyerClient}): the last reply's HTTP status ({@code code}; 0: no reply — it
 * gave up), its body, the requestId the purchase went under last (the buyer's own, or the one a 503 named), how long it
 * took from the first send, and what happened on the way: whether it was followed after a 202 (accepted), and whether
 * the gateway said 404 to a follow-up of it.
 */
public record FinalAnswer(
        int code, JsonObject body, String requestId, long micros, boolean followed, boolean notFoundWhileFollowing) {

    /** The statuses that are a purchase's decision: a 200 with one of them is final. */
    public static final Set<String> DECIDED = Set.of("SUCCESS", "SOLD_OUT", "DUPLICATE", "REJECTED");

    /** The word a load records when a buyer gave up without an answer. */
    public static final String NO_ANSWER = "NO_ANSWER";

    /** The purchase's status word ({@code SUCCESS}, …) when the body has one; null for a problem or no reply. */
    public String status() {
        return body.getValue("status") instanceof String s ? s : null; // a problem's (RFC 9457) status is a number
    }

    /** The field a refusal names (409/422: {@code requestId}, {@code goodsId}, …), or null. */
    public String field() {
        return body.getValue("field") instanceof String s ? s : null;
    }

    /** Whether the buyer has a decision: a 200 with a decided status. */
    public boolean decided() {
        return code == 200 && DECIDED.contains(status());
    }

    public boolean success() {
        return code == 200 && "SUCCESS".equals(status());
    }

    /** The answer as one word: the decision, {@code HTTP_<code>} for a refusal, {@link #NO_ANSWER} for none. */
    public String word() {
        if (code == 0) return NO_ANSWER;
        return decided() ? status() : "HTTP_" + code;
    }

    @Override
    public String toString() {
        String status = status(), field = field();
        return (code == 0 ? "no answer" : Integer.toString(code))
                + (status == null ? "" : " " + status)
                + (field == null ? "" : " field=" + field);
    }
}
