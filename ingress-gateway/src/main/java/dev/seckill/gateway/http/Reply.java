package dev.seckill.gateway.http;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer of the gateway: status, JSON body, the kind it is counted under in the metrics, and extra headers. The
 * purchase routes' answers are made in {@link Replies}; the {@link Responder} writes and counts them.
 */
public record Reply(int status, String json, String kind, Map<String, String> headers) {
    public static Reply of(int status, JsonObject body, String kind) {
        return new Reply(status, body.encode(), kind, Map.of());
    }

    public Reply withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return new Reply(status, json, kind, Map.copyOf(h));
    }
}
