package dev.seckill.gateway.http;

import dev.seckill.contracts.TraceHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the gateway reads from request headers: the bearer credential, the trace id, the RFC 7240 wait preference. */
public final class RequestHeaders {
    private static final Pattern TRACEPARENT = Pattern.compile("^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$");
    private static final Pattern TRACE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern WAIT =
            Pattern.compile("(?:^|[,;\\s])wait\\s*=\\s*\"?(\\d{1,9})\"?", Pattern.CASE_INSENSITIVE);

    private RequestHeaders() {}

    public static String bearer(RoutingContext ctx) {
        String h = ctx.request().getHeader("Authorization");
        return h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)
                ? h.substring(7).trim()
                : null;
    }

    /** {@code X-Trace-Id} when well-formed, else the trace id of a W3C {@code traceparent}, else a new one. */
    public static String traceId(RoutingContext ctx) {
        String given = ctx.request().getHeader("X-Trace-Id");
        if (given != null && TRACE_ID.matcher(given).matches()) return given;
        String parent = ctx.request().getHeader("traceparent");
        if (parent != null) {
            Matcher m = TRACEPARENT.matcher(parent.trim());
            if (m.matches()) return m.group(1);
        }
        return TraceHeaders.newTraceId();
    }

    /**
     * Seconds the client prefers to wait for the final answer ({@code Prefer: wait=N}, RFC 7240), capped at
     * {@code maxSeconds}; 0 when it did not ask (or asked for 0). Unreadable preferences are ignored, as the RFC says.
     */
    public static int preferredWaitSeconds(RoutingContext ctx, int maxSeconds) {
        int wait = 0;
        for (String prefer : ctx.request().headers().getAll("Prefer")) {
            Matcher m = WAIT.matcher(prefer);
            if (m.find()) wait = Math.max(wait, (int) Math.min(Long.parseLong(m.group(1)), Integer.MAX_VALUE));
        }
        return Math.min(wait, maxSeconds);
    }

    /**
     * The client's address: the last entry of {@code header} when one is configured and present (the address your
     * proxy saw; entries before it are the client's own word), else the TCP peer's.
     */
    public static String clientAddress(RoutingContext ctx, String header) {
        if (header != null && !header.isEmpty()) {
            String given = ctx.request().getHeader(header);
            if (given != null && !given.isBlank()) {
                String[] hops = given.split(",");
                return hops[hops.length - 1].trim();
            }
        }
        return ctx.request().remoteAddress() == null
                ? "unknown"
                : ctx.request().remoteAddress().host();
    }
}
