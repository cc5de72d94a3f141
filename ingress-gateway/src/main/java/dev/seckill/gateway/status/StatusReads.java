package dev.seckill.gateway.status;

import dev.seckill.gateway.auth.BuyerTokens;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.ReadLimiter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.RoutingContext;

/**
 * What the status reads ({@code GET /api/purchases/{id}}, {@code GET /api/purchases?goodsId=}) check before they look
 * anything up: the caller's token when one is sent, and the read limit per buyer or per client address; and their
 * answer when the store cannot tell (503 with Retry-After, never a definite "no purchase").
 */
public final class StatusReads {
    /** A read that may go on, by {@code caller} (null: no token), or the reply that stops it. */
    record Admitted(Long caller, Reply stop) {}

    private final Jwt jwt;
    private final BuyerTokens tokens;
    private final ReadLimiter limiter;
    private final String addressHeader;
    private final MeterRegistry metrics;

    public StatusReads(Jwt jwt, BuyerTokens tokens, ReadLimiter limiter, String addressHeader, MeterRegistry metrics) {
        this.jwt = jwt;
        this.tokens = tokens;
        this.limiter = limiter;
        this.addressHeader = addressHeader;
        this.metrics = metrics;
    }

    Jwt jwt() {
        return jwt;
    }

    /** The token (401 when one is sent and refused, 429 past the address's refused tokens), then the read limit (429). */
    Admitted admit(RoutingContext ctx) {
        Long caller = null;
        if (jwt != null && ctx.request().getHeader("Authorization") != null) {
            BuyerTokens.Checked checked = tokens.check(ctx, "status_unauthenticated");
            if (checked.refused() != null) return new Admitted(null, checked.refused());
            caller = checked.buyer();
        }
        RateLimiter.Limited limited = limiter.check(caller, RequestHeaders.clientAddress(ctx, addressHeader));
        if (limited == null) return new Admitted(caller, null);
        metrics.counter("seckill_gateway_rate_limited", "scope", "status_" + limited.scope())
                .increment();
        return new Admitted(caller, Replies.rateLimited(limited, "status lookups per ", "status_rate_limited"));
    }

    /**
     * 503: the store cannot say whether this purchase exists — Redis did not answer, or it lost writes and is being
     * rebuilt from the outcome topics ({@code why}) — or too many requests wait already. Ask again shortly.
     */
    Reply cannotTell(String requestId, String why, String kind) {
        metrics.counter("seckill_gateway_status_unavailable", "why", kind).increment();
        return Replies.cannotTell(requestId, why, kind);
    }
}
