package dev.seckill.gateway.auth;

import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.RefusalBudget;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.RoutingContext;

/**
 * A request's bearer token at the door: a token the gateway remembers (verified or refused for good before) is answered
 * from its caches; any other is charged to its client address's {@link RefusalBudget} first — 429 unchecked when the
 * address has had too many tokens refused — then verified, and the charge given back when it holds. A flood of forged
 * tokens thus costs the gateway a signature check only within its address's budget, and nothing once repeated.
 */
public final class BuyerTokens {
    /** The buyer the token names, or the reply that refuses the request. */
    public record Checked(Long buyer, Reply refused) {}

    private final Jwt jwt;
    private final RefusalBudget budget;
    private final String addressHeader;
    private final MeterRegistry metrics;

    public BuyerTokens(Jwt jwt, RefusalBudget budget, String addressHeader, MeterRegistry metrics) {
        this.jwt = jwt;
        this.budget = budget;
        this.addressHeader = addressHeader;
        this.metrics = metrics;
    }

    /** The request's token checked; {@code kind} names a refusal in the answers' counter (401). */
    public Checked check(RoutingContext ctx, String kind) {
        Jwt.Lookup token = jwt.lookup(RequestHeaders.bearer(ctx));
        String charged = null;
        if (!token.remembered()) {
            charged = RequestHeaders.clientAddress(ctx, addressHeader);
            RateLimiter.Limited limited = budget.take(charged);
            if (limited != null) {
                metrics.counter("seckill_gateway_rate_limited", "scope", "refused_tokens")
                        .increment();
                return new Checked(null, Replies.rateLimited(limited, "refused tokens per ", "token_rate_limited"));
            }
        }
        try {
            long buyer = jwt.verify(token);
            if (charged != null) budget.giveBack(charged);
            return new Checked(buyer, null);
        } catch (Jwt.Refused e) {
            return new Checked(null, Replies.unauthenticated(e.getMessage(), kind));
        }
    }
}
