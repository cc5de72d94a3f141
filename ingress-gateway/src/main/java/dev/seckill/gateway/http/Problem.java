package dev.seckill.gateway.http;

import io.vertx.core.json.JsonObject;

/**
 * The kinds of RFC 9457 problem the gateway answers a 4xx or 5xx with (docs/contracts.md, "Problem types"): each a
 * {@code type} URI and a {@code title} that never change for it, an HTTP status, and per answer a {@code detail} and
 * extensions ({@code field}, {@code requestId}, {@code retryAfterSeconds}, {@code purchaseStatus}, ...). The body is
 * {@code application/problem+json}; it also carries {@code error} (= {@code detail}), the member clients read before the
 * gateway spoke RFC 9457, for as long as the deprecation in docs/contracts.md says.
 */
public enum Problem {
    INVALID(400, "invalid-request", "A field of the request is invalid"),
    UNAUTHENTICATED(401, "unauthenticated", "No valid credential"),
    FORBIDDEN(403, "forbidden", "Not this caller's to do"),
    NOT_FOUND(404, "not-found", "No such purchase for this caller"),
    NOT_RECEIVED(404, "not-received", "The purchase never reached the pipeline"),
    PAYMENTS_OFF(404, "payments-off", "This gateway takes no payments"),
    NO_SUCH_PATH(404, "no-such-path", "No such path in this API"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "The path does not take this method"),
    REQUEST_ID_CONFLICT(409, "request-id-conflict", "The requestId names another buyer's purchase"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "The body must be JSON"),
    REQUEST_ID_REUSED(422, "request-id-reused", "The requestId was used for another purchase"),
    RATE_LIMITED(429, "rate-limited", "Too many requests"),
    INTERNAL(500, "internal", "The gateway failed to answer"),
    UNKNOWN(503, "unknown", "The answer cannot be known now"),
    SHUTTING_DOWN(503, "shutting-down", "The gateway is shutting down");

    /** Where the problem types are described; each type is this plus its name. */
    public static final String TYPE_PREFIX = "https://seckill.dev/problems/";

    public static final String MEDIA_TYPE = "application/problem+json";

    private final int status;
    private final String name;
    private final String title;

    Problem(int status, String name, String title) {
        this.status = status;
        this.name = name;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String type() {
        return TYPE_PREFIX + name;
    }

    public String title() {
        return title;
    }

    /** The problem's body: type, title, status, detail (and {@code error}, its earlier name); add extensions to it. */
    public JsonObject body(String detail) {
        return new JsonObject()
                .put("type", type())
                .put("title", title)
                .put("status", status)
                .put("detail", detail)
                .put("error", detail);
    }

    /** The answer: this problem's status and {@code body}, as {@code application/problem+json}, counted as {@code kind}. */
    public Reply reply(JsonObject body, String kind) {
        return Reply.of(status, body, kind).withHeader("Content-Type", MEDIA_TYPE);
    }

    public Reply reply(String detail, String kind) {
        return reply(body(detail), kind);
    }
}
