package dev.seckill.gateway.http;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer of the gateway: status, JSON body, the kind it is counted under in the metrics, and extra headers.
 * A door check that stops a request returns one; the {@link Responder} writes and counts it.
 */
public record Reply(int status, String json, String kind, Map<String, String> headers) {
    /** Not an answer yet: a waiter answers the request later (Prefer: wait). */
    public static final Reply LATER = new Reply(0, "", "later", Map.of());

    public boolean later() {
        return this == LATER;
    }

    public static Reply of(int status, JsonObject body, String kind) {
        return new Reply(status, body.encode(), kind, Map.of());
    }

    public Reply withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return new Reply(status, json, kind, Map.copyOf(h));
    }

    /** A 401 saying why, with the {@code WWW-Authenticate: Bearer} challenge. */
    public static Reply unauthenticated(String error, String kind) {
        return of(401, new JsonObject().put("error", error), kind).withHeader("WWW-Authenticate", "Bearer");
    }

    /** A 400 naming the bad field. */
    public static Reply invalid(String message, String field) {
        return of(400, new JsonObject().put("error", message).put("field", field), "invalid");
    }
}
