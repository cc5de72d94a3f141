package dev.seckill.gateway;

import dev.seckill.gateway.auth.Jwt;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.time.Duration;
import java.util.List;

/** The gateway's settings, each declared once, and their values read once at start ({@link #from(Settings)}). */
public record GatewaySettings(
        String host,
        int port,
        int metricsPort,
        int eventLoops,
        int bodyLimit,
        int maxWaitSeconds,
        boolean authEnabled,
        String authSecret,
        String authIssuer,
        String authAudience,
        long authMaxLifetimeSeconds,
        String paymentSecret,
        String idSecret,
        long limitGlobalPerSecond,
        long limitGoodsPerSecond,
        long limitUserPerSecond,
        long limitUserBurst,
        int limitTrackedKeys,
        int rememberedIds,
        int windowLookupQueue,
        long windowCacheMs,
        int windowCacheGoods,
        int outcomeCache,
        long soldoutTtlMs,
        long outcomeFetchMaxWaitMs,
        int statusQueue,
        long statusTtlMs,
        long statusTtlRejectedMs,
        long pendingBoundMs,
        String statusRedisUrl,
        long limitStatusPerSecond,
        long limitStatusBurst,
        int maxWaiters,
        int replicas,
        String clientAddressHeader,
        int kafkaTimeoutMs,
        int lingerMs,
        int maxBlockMs,
        long bufferBytes,
        String compression) {

    public static final Setting<String> HOST =
            Setting.text("gateway.host", "127.0.0.1", "the address the HTTP server listens on");
    public static final Setting<Integer> PORT =
            Setting.integer("gateway.port", 8080, "the HTTP port (0: any free port)");
    public static final Setting<Integer> METRICS_PORT = Setting.integer(
            "gateway.metrics.port",
            9401,
            "the admin port, on SECKILL_ADMIN_HOST: /metrics, /health, /live and /openapi.yaml (0: any free port); the HTTP port "
                    + "keeps /health and /live, not /metrics");
    public static final Setting<Integer> EVENT_LOOPS = Setting.integer(
            "gateway.event.loops",
            s -> Runtime.getRuntime().availableProcessors(),
            "CPU count",
            "Vert.x event loops, one HTTP server each");
    public static final Setting<Integer> BODY_LIMIT = Setting.integer(
            "gateway.body.limit", 4096, "bytes of JSON a purchase may have (multipart and form bodies are 415)");
    public static final Setting<Integer> MAX_WAIT_SECONDS =
            Setting.integer("gateway.max.wait.seconds", 10, "the cap on Prefer: wait=N");
    public static final Setting<Boolean> AUTH_ENABLED =
            Setting.flag("gateway.auth.enabled", true, "buyers must send a bearer JWT (sub = userId, exp)");
    public static final Setting<String> AUTH_SECRET = Setting.secret(
            "gateway.auth.secret",
            128,
            "the HS256 key, at least 32 characters, random, for local runs (the gateway can then mint tokens); not used "
                    + "for tokens when a JWKS is set");
    public static final Setting<String> AUTH_ISSUER =
            Setting.text("gateway.auth.issuer", "", "when set, a token's iss must match (empty: not checked)");
    public static final Setting<String> AUTH_AUDIENCE =
            Setting.text("gateway.auth.audience", "", "when set, a token's aud must match (empty: not checked)");
    public static final Setting<Long> AUTH_MAX_LIFETIME_SECONDS = Setting.number(
            "gateway.auth.max.lifetime.seconds",
            Jwt.DEFAULT_MAX_LIFETIME.toSeconds(),
            "longer-lived tokens are refused");
    public static final Setting<String> AUTH_JWKS = Setting.text(
            "gateway.auth.jwks",
            "",
            "the identity provider's public keys (JWKS): a file path or an http(s) URL; when set, tokens are verified "
                    + "against it (their kid chooses the key) and the HS256 secret is not accepted");
    public static final Setting<Long> AUTH_JWKS_REFRESH_SECONDS = Setting.number(
            "gateway.auth.jwks.refresh.seconds",
            300,
            "how often the JWKS is read again (a token naming a kid not read yet makes an earlier read, at most twice per 30 s)");
    public static final Setting<String> AUTH_ALGORITHMS = Setting.text(
            "gateway.auth.algorithms", "RS256,ES256", "the signature algorithms accepted with a JWKS (RSA or EC only)");
    public static final Setting<Long> AUTH_LEEWAY_SECONDS = Setting.number(
            "gateway.auth.leeway.seconds",
            Jwt.DEFAULT_LEEWAY.toSeconds(),
            "how far the issuer's clock may be from the gateway's for exp and nbf (0 to 300)");
    public static final Setting<String> PAYMENT_SECRET = Setting.secret(
            "gateway.payment.secret",
            128,
            "the payment provider's credential for POST /api/orders/{id}/pay, at least 32 characters and not the JWT "
                    + "secret (empty: the endpoint is off, 404)");
    public static final Setting<String> ID_SECRET = Setting.secret(
            "gateway.id.secret",
            128,
            "signs the requestIds gateways make (empty: derived from the HS256 secret; set it when auth is off or "
                    + "tokens come from a JWKS, and several instances serve GET)");
    public static final Setting<Long> LIMIT_GLOBAL_PER_SECOND =
            Setting.number("gateway.limit.global.per.second", 100_000, "purchases per second for the whole gateway");
    public static final Setting<Long> LIMIT_GOODS_PER_SECOND =
            Setting.number("gateway.limit.goods.per.second", 50_000, "purchases per second per goods");
    public static final Setting<Long> LIMIT_USER_PER_SECOND =
            Setting.number("gateway.limit.user.per.second", 5, "purchases per second per buyer");
    public static final Setting<Long> LIMIT_USER_BURST =
            Setting.number("gateway.limit.user.burst", 10, "a buyer's burst");
    public static final Setting<Integer> LIMIT_TRACKED_KEYS =
            Setting.integer("gateway.limit.tracked.keys", 1_000_000, "goods and buyers the rate limiter tracks");
    public static final Setting<Integer> REMEMBERED_IDS = Setting.integer(
            "gateway.remembered.ids",
            1_000_000,
            "client requestIds remembered for idempotent retries at the door (at least half of them)");
    public static final Setting<Integer> WINDOW_LOOKUP_QUEUE = Setting.integer(
            "gateway.window.lookup.queue",
            1024,
            "sale-window lookups queued for Redis for goods not known to have a sale (beyond it, requests pass through to "
                    + "the stream)");
    public static final Setting<Long> WINDOW_CACHE_MS =
            Setting.number("gateway.window.cache.ms", 1000, "how long a sale window is cached");
    public static final Setting<Integer> WINDOW_CACHE_GOODS = Setting.integer(
            "gateway.window.cache.goods",
            100_000,
            "sale windows cached (beyond it, requests pass through to the stream)");
    public static final Setting<Integer> OUTCOME_CACHE =
            Setting.integer("gateway.outcome.cache", 500_000, "outcomes kept in memory for GET and waiting requests");
    public static final Setting<Long> SOLDOUT_TTL_MS = Setting.number(
            "gateway.soldout.ttl.ms",
            2000,
            "how long a sold-out mark answers 200 SOLD_OUT at the door before it is renewed (while Redis's stock is still 0) or lapses");
    public static final Setting<Long> OUTCOME_FETCH_MAX_WAIT_MS = Setting.number(
            "gateway.outcome.fetch.max.wait.ms",
            500,
            "the outcome view's consumer fetch.max.wait.ms: how long a fetch waits for outcomes (wakes Prefer: wait)");
    public static final Setting<Integer> STATUS_QUEUE = Setting.integer(
            "gateway.status.queue",
            100_000,
            "Redis calls of the status store waiting for their pipeline, per queue (claims, GETs, the indexer)");
    public static final Setting<Long> STATUS_TTL_MS = Setting.number(
            "gateway.status.ttl.ms",
            Duration.ofDays(2).toMillis(),
            "how long GET /api/purchases/{id} knows a purchase");
    public static final Setting<Long> STATUS_TTL_REJECTED_MS = Setting.number(
            "gateway.status.ttl.rejected.ms",
            Duration.ofMinutes(5).toMillis(),
            "how long GET knows a REJECTED no_sale or invalid (what floods of made-up goods or reused ids leave); at "
                    + "least the pending bound");
    public static final Setting<Long> PENDING_BOUND_MS = Setting.number(
            "gateway.pending.bound.ms",
            Duration.ofMinutes(5).toMillis(),
            "the pipeline's expected lag: an accepted purchase not decided within it answers 404 NOT_RECEIVED, not PENDING "
                    + "(one a drawn sale's draw holds: within it after the draw's cutoff, WAITING_DRAW until then)");
    public static final Setting<String> STATUS_REDIS_URL = Setting.text(
            "gateway.status.redis.url",
            "",
            "a Redis of its own for the purchase status store, so a read flood cannot touch the stock (empty: the stock's)");
    public static final Setting<Long> LIMIT_STATUS_PER_SECOND = Setting.number(
            "gateway.limit.status.per.second",
            20,
            "GET /api/purchases lookups per second per buyer token, or per client address without one");
    public static final Setting<Long> LIMIT_STATUS_BURST =
            Setting.number("gateway.limit.status.burst", 40, "a client's burst of status lookups");
    public static final Setting<Integer> MAX_WAITERS = Setting.integer(
            "gateway.max.waiters",
            50_000,
            "requests holding their answer (Prefer: wait) per instance; beyond it a GET is 503, a purchase 202 at once");
    public static final Setting<Integer> REPLICAS = Setting.integer(
            "gateway.replicas",
            1,
            "gateway instances behind the load balancer: each enforces the rate limits divided by it");
    public static final Setting<String> CLIENT_ADDRESS_HEADER = Setting.text(
            "gateway.client.address.header",
            "",
            "a header your proxy sets to the client's address (its last entry is used; empty: the TCP peer's)");
    public static final Setting<Integer> KAFKA_TIMEOUT_MS = Setting.integer(
            "gateway.kafka.timeout.ms", 3000, "how long a purchase waits for Kafka's acknowledgment before 503");
    public static final Setting<Integer> LINGER_MS =
            Setting.integer("gateway.linger.ms", 2, "the producer's linger.ms");
    public static final Setting<Integer> MAX_BLOCK_MS =
            Setting.integer("gateway.max.block.ms", 500, "the producer's max.block.ms");
    public static final Setting<Long> BUFFER_BYTES =
            Setting.number("gateway.buffer.bytes", 64L * 1024 * 1024, "the producer's buffer.memory");
    public static final Setting<String> COMPRESSION =
            Setting.text("gateway.compression", "lz4", "the producer's compression.type");

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(GatewaySettings.class);
    }

    public static GatewaySettings from(Settings s) {
        return new GatewaySettings(
                s.get(HOST),
                s.get(PORT),
                s.get(METRICS_PORT),
                s.get(EVENT_LOOPS),
                s.get(BODY_LIMIT),
                s.get(MAX_WAIT_SECONDS),
                s.get(AUTH_ENABLED),
                s.get(AUTH_SECRET),
                s.get(AUTH_ISSUER),
                s.get(AUTH_AUDIENCE),
                s.get(AUTH_MAX_LIFETIME_SECONDS),
                s.get(PAYMENT_SECRET),
                s.get(ID_SECRET),
                s.get(LIMIT_GLOBAL_PER_SECOND),
                s.get(LIMIT_GOODS_PER_SECOND),
                s.get(LIMIT_USER_PER_SECOND),
                s.get(LIMIT_USER_BURST),
                s.get(LIMIT_TRACKED_KEYS),
                s.get(REMEMBERED_IDS),
                s.get(WINDOW_LOOKUP_QUEUE),
                s.get(WINDOW_CACHE_MS),
                s.get(WINDOW_CACHE_GOODS),
                s.get(OUTCOME_CACHE),
                s.get(SOLDOUT_TTL_MS),
                s.get(OUTCOME_FETCH_MAX_WAIT_MS),
                s.get(STATUS_QUEUE),
                s.get(STATUS_TTL_MS),
                s.get(STATUS_TTL_REJECTED_MS),
                s.get(PENDING_BOUND_MS),
                s.get(STATUS_REDIS_URL),
                s.get(LIMIT_STATUS_PER_SECOND),
                s.get(LIMIT_STATUS_BURST),
                s.get(MAX_WAITERS),
                s.get(REPLICAS),
                s.get(CLIENT_ADDRESS_HEADER),
                s.get(KAFKA_TIMEOUT_MS),
                s.get(LINGER_MS),
                s.get(MAX_BLOCK_MS),
                s.get(BUFFER_BYTES),
                s.get(COMPRESSION));
    }

    /** Secrets never printed. */
    @Override
    public String toString() {
        return "GatewaySettings[" + host + ":" + port + ", auth " + authEnabled + "]";
    }
}
