package dev.seckill.gateway;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.observability.ServiceMain;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.contracts.redis.RedisConnections;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.limit.RateLimiter;
import java.util.concurrent.ExecutorService;
import redis.clients.jedis.UnifiedJedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The ingress gateway: validates a purchase, puts it on {@code <prefix>commands} keyed by goodsId and answers
 * 202 only after Kafka acknowledged it (acks=all, idempotent producer); 503 when Kafka does not take it in time.
 */
public final class GatewayApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayApp.class);
    private static final Pattern TRACEPARENT = Pattern.compile("^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$");
    private static final Pattern TRACE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** Retry-After on a 503: a broker failover or a full producer buffer is typically over within a second or two. */
    private static final long RETRY_AFTER_SECONDS = 1;

    private final Settings settings;
    private final MeterRegistry metrics;
    private final Topics topics;
    private final Clock clock = Clock.systemUTC();
    private final RecentIds acceptedIds;
    private Vertx vertx;
    private final java.util.List<HttpServer> servers = new java.util.ArrayList<>();
    private KafkaProducer<String, byte[]> producer;
    private OutcomeView view;
    private Jwt jwt;
    /** SHA-256 of the payment provider's credential; null: the pay endpoint is off. */
    private byte[] paymentCredential;
    private RateLimiter limiter;
    private UnifiedJedis redis;
    private ExecutorService blocking;
    private SaleWindows windows;
    private volatile boolean accepting;
    private final Map<String, ReplyMeters> replyMeters = new java.util.concurrent.ConcurrentHashMap<>();

    public GatewayApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.topics = new Topics(settings.topicPrefix());
        this.acceptedIds = new RecentIds(settings.getInt("gateway.remembered.ids", 1_000_000));
    }

    public GatewayApp start() {
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        TopicProvisioner.ensure(settings.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        int ackTimeoutMs = settings.getInt("gateway.kafka.timeout.ms", 3000);
        Map<String, Object> p = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, settings.getInt("gateway.linger.ms", 2),
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(ackTimeoutMs - 500, 500),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ackTimeoutMs,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.getInt("gateway.max.block.ms", 500),
                ProducerConfig.BUFFER_MEMORY_CONFIG, settings.getLong("gateway.buffer.bytes", 64L * 1024 * 1024),
                // lz4: without compression the broker does more work per command, and the bench lost 10-25%
                ProducerConfig.COMPRESSION_TYPE_CONFIG, settings.get("gateway.compression", "lz4"));
        producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        new KafkaClientMetrics(producer).bindTo(metrics);
        if (Boolean.parseBoolean(settings.get("gateway.auth.enabled", "true"))) {
            String secret = settings.get("gateway.auth.secret", "");
            if (secret.length() < 32) {
                throw new IllegalStateException("auth is on and needs an HMAC secret of at least 32 characters in "
                        + "SECKILL_GATEWAY_AUTH_SECRET (or SECKILL_GATEWAY_AUTH_ENABLED=false for a demo)");
            }
            jwt = new Jwt(secret, clock, new Jwt.Policy(settings.get("gateway.auth.issuer", ""), settings.get("gateway.auth.audience", ""),
                    Duration.ofSeconds(settings.getLong("gateway.auth.max.lifetime.seconds", Jwt.DEFAULT_MAX_LIFETIME.toSeconds()))));
        }
        paymentCredential = paymentCredential(settings);
        limiter = new RateLimiter(settings.getLong("gateway.limit.global.per.second", 100_000),
                settings.getLong("gateway.limit.goods.per.second", 50_000), settings.getLong("gateway.limit.user.per.second", 5),
                settings.getLong("gateway.limit.user.burst", 10), settings.getInt("gateway.limit.tracked.keys", 1_000_000));
        metrics.gauge("seckill_gateway_rate_limit_keys", limiter, RateLimiter::trackedKeys);
        redis = RedisConnections.open(settings);
        blocking = SaleWindows.lookups(2, settings.getInt("gateway.window.lookup.queue", 1024));
        windows = new SaleWindows(redis, new RedisKeys(settings.redisPrefix()), blocking, settings.getLong("gateway.window.cache.ms", 1000),
                settings.getInt("gateway.window.cache.goods", 100_000));
        metrics.gauge("seckill_gateway_sale_windows", windows, SaleWindows::cachedGoods);
        view = new OutcomeView(settings.kafkaBootstrap(), topics, settings.getInt("gateway.outcome.cache", 500_000),
                Duration.ofMillis(settings.getLong("gateway.soldout.ttl.ms", 2000)), windows::invalidate);
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.post("/api/purchases").handler(new JsonOnly()).handler(jsonBody(settings.getInt("gateway.body.limit", 4096)))
                .handler(this::purchase).failureHandler(this::bodyFailure);
        router.get("/api/purchases/:requestId").handler(this::status);
        router.post("/api/orders/:orderId/pay").handler(new JsonOnly()).handler(jsonBody(1024)).handler(this::pay)
                .failureHandler(this::bodyFailure);
        router.get("/health").handler(this::health);
        if (metrics instanceof PrometheusMeterRegistry prom) {
            router.get("/metrics").handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4")
                    .end(prom.scrape()));
        }
        String host = settings.get("gateway.host", "127.0.0.1");
        int port = settings.getInt("gateway.port", 8080);
        HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port == 0 ? freePort(host) : port)
                .setTcpNoDelay(true).setIdleTimeout(60)
                // HTTP/1.1 only: no h2c upgrade sniffing and no WebSocket extension handler on every connection's pipeline
                .setHttp2ClearTextEnabled(false)
                .setPerFrameWebSocketCompressionSupported(false).setPerMessageWebSocketCompressionSupported(false);
        int loops = settings.getInt("gateway.event.loops", Runtime.getRuntime().availableProcessors());
        try {
            // One server per event loop, all on the same port: Vert.x spreads connections across them.
            for (int i = 0; i < loops; i++) servers.add(listen(router, options));
        } catch (Exception e) {
            throw new IllegalStateException("gateway cannot listen on " + options.getHost() + ":" + options.getPort() + ": "
                    + e.getMessage(), e);
        }
        accepting = true;
        LOG.info("gateway listening on http://{}:{} ({} event loops) -> {}", options.getHost(), port(), loops, topics.commands());
        return this;
    }

    /** Port 0 means "any free port"; every event loop's server must then share the one picked here. */
    private static int freePort(String host) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no free port on " + host, e);
        }
    }

    private HttpServer listen(Router router, HttpServerOptions options) throws Exception {
        return vertx.createHttpServer(options).requestHandler(router).listen()
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    public int port() { return servers.get(0).actualPort(); }

    private void purchase(RoutingContext ctx) {
        long start = System.nanoTime();
        String traceId = traceId(ctx);
        ctx.response().putHeader("X-Trace-Id", traceId);
        if (!accepting) {
            reply(ctx, 503, new JsonObject().put("error", "gateway is shutting down"), "shutting_down", start);
            return;
        }
        Long buyer = null;
        if (jwt != null) {
            try {
                buyer = jwt.verify(bearer(ctx));
            } catch (Jwt.Refused e) {
                ctx.response().putHeader("WWW-Authenticate", "Bearer");
                reply(ctx, 401, new JsonObject().put("error", e.getMessage()), "unauthenticated", start);
                return;
            }
        }
        PurchaseRequest req;
        try {
            req = PurchaseRequest.parse(ctx.body().asString(), buyer);
        } catch (PurchaseRequest.Invalid e) {
            reply(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field), "invalid", start);
            return;
        } catch (PurchaseRequest.Forbidden e) {
            reply(ctx, 403, new JsonObject().put("error", e.getMessage()).put("field", "userId"), "forbidden", start);
            return;
        }
        RateLimiter.Limited limited = limiter.check(req.goodsId(), req.userId());
        if (limited != null) {
            metrics.counter("seckill_gateway_rate_limited", "scope", limited.scope()).increment();
            ctx.response().putHeader("Retry-After", Long.toString(limited.retryAfterSeconds()));
            reply(ctx, 429, new JsonObject().put("error", "rate limited (" + limited.scope() + ")")
                    .put("retryAfterSeconds", limited.retryAfterSeconds()), "rate_limited", start);
            return;
        }
        if (req.requestId() != null) {
            Long owner = acceptedIds.owner(req.requestId());
            if (owner != null && owner != req.userId()) {
                // the stream would treat it as a retry of the other buyer's purchase: this buyer would get 202 and no outcome
                reply(ctx, 409, new JsonObject().put("error", "requestId " + req.requestId() + " is already used by another purchase; "
                        + "choose a new requestId").put("field", "requestId").put("requestId", req.requestId()), "request_id_conflict", start);
                return;
            }
            if (owner != null) {
                reply(ctx, 202, pending(req.requestId()), "retry_accepted", start);
                return;
            }
        }
        String outside = windows.reject(req.goodsId(), clock.millis());
        if (outside != null) {
            metrics.counter("seckill_gateway_short_circuits", "kind", outside).increment();
            reply(ctx, 200, new JsonObject().put("status", "REJECTED").put("reason", outside).put("goodsId", req.goodsId()),
                    "rejected_" + outside, start);
            return;
        }
        if (view.knownSoldOut(req.goodsId())) {
            metrics.counter("seckill_gateway_short_circuits", "kind", "sold_out").increment();
            reply(ctx, 200, new JsonObject().put("status", "SOLD_OUT").put("goodsId", req.goodsId()), "sold_out", start);
            return;
        }
        String requestId = req.requestId() != null ? req.requestId() : UUID.randomUUID().toString();
        Purchase command = new Purchase(requestId, req.goodsId(), req.userId(), req.quantity(), clock.instant());
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.commands(), command.key(), CommandCodec.encode(command));
        TraceHeaders.put(record.headers(), traceId);
        Context context = vertx.getOrCreateContext();
        try {
            producer.send(record, (meta, error) -> context.runOnContext(v -> {
                if (error != null) {
                    metrics.counter("seckill_gateway_producer_errors", "error", error.getClass().getSimpleName()).increment();
                    logWithTrace(traceId, "Kafka did not take {}: {}", requestId, error.getMessage());
                    unavailable(ctx, requestId, "Kafka did not acknowledge the command in time", error, start);
                } else {
                    if (req.requestId() != null) acceptedIds.add(requestId, req.userId());
                    reply(ctx, 202, pending(requestId), "accepted", start);
                }
            }));
        } catch (RuntimeException e) {
            metrics.counter("seckill_gateway_producer_errors", "error", e.getClass().getSimpleName()).increment();
            unavailable(ctx, requestId, "Kafka cannot take the command now", e, start);
        }
    }

    /**
     * 503 for a purchase Kafka did not acknowledge. A timed-out send may still have been appended (and then decided),
     * so the body carries the requestId, the gateway's own when the client sent none: the buyer can look it up and retry
     * with it, and a retry with the same requestId is decided at most once. {@code Retry-After} says when to try again.
     */
    private void unavailable(RoutingContext ctx, String requestId, String error, Throwable cause, long start) {
        ctx.response().putHeader("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
        reply(ctx, 503, new JsonObject().put("error", error).put("reason", cause.getClass().getSimpleName()).put("requestId", requestId)
                .put("status", "UNKNOWN").put("retryAfterSeconds", RETRY_AFTER_SECONDS)
                .put("hint", "the command may still have been accepted: retry with this requestId, or look it up"), "kafka_unavailable", start);
    }

    /**
     * The payment provider's credential, hashed, or null when none is configured (the pay endpoint is then off). It
     * must be at least 32 characters and not the buyers' JWT secret: a separate credential, so that nothing a buyer
     * holds or could be issued can report a payment.
     */
    static byte[] paymentCredential(Settings settings) {
        String secret = settings.get("gateway.payment.secret", "");
        if (secret.isEmpty()) return null;
        if (secret.length() < 32) {
            throw new IllegalStateException("SECKILL_GATEWAY_PAYMENT_SECRET must be at least 32 characters");
        }
        if (secret.equals(settings.get("gateway.auth.secret", ""))) {
            throw new IllegalStateException("SECKILL_GATEWAY_PAYMENT_SECRET must differ from SECKILL_GATEWAY_AUTH_SECRET");
        }
        return sha256(secret);
    }

    private static byte[] sha256(String s) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Payments: a payment event on {@code <prefix>payments}, keyed by orderId, 202 once Kafka has it. Only the
     * payment provider may call it, with its own credential ({@code Authorization: Bearer <payment secret>}); a buyer's
     * token is refused, and without a configured credential the endpoint does not exist (404).
     */
    private void pay(RoutingContext ctx) {
        long start = System.nanoTime();
        String traceId = traceId(ctx);
        ctx.response().putHeader("X-Trace-Id", traceId);
        if (paymentCredential == null) {
            reply(ctx, 404, new JsonObject().put("error", "payments are not accepted on this gateway: they come from the "
                    + "payment provider, and this endpoint is off unless SECKILL_GATEWAY_PAYMENT_SECRET is set"), "payments_off", start);
            return;
        }
        String presented = bearer(ctx);
        if (presented == null || presented.isEmpty()) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"payments\"");
            reply(ctx, 401, new JsonObject().put("error", "missing the payment provider's credential"), "unauthenticated", start);
            return;
        }
        // digests of equal length, compared in constant time: the comparison says nothing about the secret's prefix or length
        if (!java.security.MessageDigest.isEqual(sha256(presented), paymentCredential)) {
            reply(ctx, 403, new JsonObject().put("error", "only the payment provider may report payments"), "forbidden", start);
            return;
        }
        long orderId;
        try {
            orderId = Long.parseLong(ctx.pathParam("orderId"));
        } catch (NumberFormatException e) {
            orderId = -1;
        }
        if (orderId <= 0) {
            reply(ctx, 400, new JsonObject().put("error", "orderId must be a positive integer").put("field", "orderId"), "invalid", start);
            return;
        }
        String paymentId = UUID.randomUUID().toString();
        String body = ctx.body().asString();
        if (body != null && !body.isBlank()) {
            try {
                Object given = new JsonObject(body).getValue("paymentId");
                if (given != null) {
                    if (!(given instanceof String g) || !CommandRules.validRequestId(g)) {
                        reply(ctx, 400, new JsonObject().put("error", "paymentId must be 1-64 characters of [A-Za-z0-9._:-]")
                                .put("field", "paymentId"), "invalid", start);
                        return;
                    }
                    paymentId = g;
                }
            } catch (RuntimeException e) {
                reply(ctx, 400, new JsonObject().put("error", "body is not valid JSON").put("field", "body"), "invalid", start);
                return;
            }
        }
        Payment payment = Payment.of(paymentId, orderId, clock.instant());
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.payments(), Long.toString(orderId), Json.write(payment));
        TraceHeaders.put(record.headers(), traceId);
        Context context = vertx.getOrCreateContext();
        String id = paymentId;
        long order = orderId;
        try {
            producer.send(record, (meta, error) -> context.runOnContext(v -> {
                if (error != null) {
                    reply(ctx, 503, new JsonObject().put("error", "Kafka did not acknowledge the payment in time"), "kafka_unavailable", start);
                } else {
                    reply(ctx, 202, new JsonObject().put("paymentId", id).put("orderId", order).put("status", "PENDING"), "payment_accepted", start);
                }
            }));
        } catch (RuntimeException e) {
            reply(ctx, 503, new JsonObject().put("error", "Kafka cannot take the payment now"), "kafka_unavailable", start);
        }
    }

    private void status(RoutingContext ctx) {
        String requestId = ctx.pathParam("requestId");
        if (!CommandRules.validRequestId(requestId)) {
            ctx.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("error", "requestId must be 1-64 characters of [A-Za-z0-9._:-]").put("field", "requestId").encode());
            return;
        }
        Long caller = null;
        if (jwt != null && ctx.request().getHeader("Authorization") != null) {
            try {
                caller = jwt.verify(bearer(ctx));
            } catch (Jwt.Refused e) {
                ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer").putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", e.getMessage()).encode());
                return;
            }
        }
        Outcome o = view.outcome(requestId);
        Long owner = o != null ? Long.valueOf(o.userId()) : acceptedIds.owner(requestId);
        if (caller != null && owner != null && owner.longValue() != caller) {
            // another buyer's purchase: 404, with nothing of whose it is or what it was
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("requestId", requestId).put("error", "no purchase with this requestId for this buyer").encode());
            return;
        }
        JsonObject body;
        if (o == null) {
            body = new JsonObject().put("requestId", requestId).put("status", "PENDING");
        } else if (jwt != null && caller == null) {
            // no token: the outcome only, never whose it is, what or how many (the buyer's own token gets it all)
            body = new JsonObject().put("requestId", requestId).put("status", o.outcome().name());
            if (o.reason() != null) body.put("reason", o.reason());
        } else {
            body = new JsonObject(new String(Json.write(o), java.nio.charset.StandardCharsets.UTF_8)).put("status", o.outcome().name());
        }
        ctx.response().putHeader("Content-Type", "application/json").end(body.encode());
    }

    private void health(RoutingContext ctx) {
        boolean kafka = view.healthy(5000);
        vertx.executeBlocking(() -> {
            try {
                return "PONG".equalsIgnoreCase(redis.ping());
            } catch (RuntimeException e) {
                return false;
            }
        }).onComplete(r -> {
            boolean redisUp = r.succeeded() && Boolean.TRUE.equals(r.result());
            JsonObject body = new JsonObject().put("kafka", kafka ? "UP" : "DOWN").put("redis", redisUp ? "UP" : "DOWN")
                    .put("status", kafka && redisUp ? "UP" : "DOWN");
            ctx.response().setStatusCode(kafka && redisUp ? 200 : 503).putHeader("Content-Type", "application/json").end(body.encode());
        });
    }

    /**
     * A POST body is a small JSON object held in memory. Vert.x's default BodyHandler would also take multipart
     * uploads and write them to {@code ./file-uploads}, never deleting them: anyone could fill the disk before auth.
     * Uploads are off and deleted if one ever got through, and the body is bounded.
     */
    private static BodyHandler jsonBody(int limit) {
        return BodyHandler.create(false).setBodyLimit(limit).setDeleteUploadedFilesOnEnd(true).setMergeFormAttributes(false);
    }

    /**
     * Forms and uploads are refused before their body is read: 415, naming what the door takes. A platform handler,
     * because Vert.x lets only those run before the body handler.
     */
    private final class JsonOnly implements io.vertx.ext.web.handler.PlatformHandler {
        @Override public void handle(RoutingContext ctx) {
            String type = ctx.request().getHeader("Content-Type");
            String t = type == null ? "" : type.trim().toLowerCase(java.util.Locale.ROOT);
            if (t.startsWith("multipart/") || t.startsWith("application/x-www-form-urlencoded")) {
                ctx.response().putHeader("Accept", "application/json");
                reply(ctx, 415, new JsonObject().put("error", "the body must be JSON (Content-Type: application/json); forms and "
                        + "file uploads are not accepted").put("field", "body"), "unsupported_media_type", System.nanoTime());
                return;
            }
            ctx.next();
        }
    }

    private void bodyFailure(RoutingContext ctx) {
        if (ctx.statusCode() == 413) {
            reply(ctx, 400, new JsonObject().put("error", "body is larger than the limit").put("field", "body"), "invalid", System.nanoTime());
        } else {
            ctx.next();
        }
    }

    /**
     * The body of an accepted purchase, written directly: it is every 202, and a requestId is a UUID or passed
     * {@link CommandRules#validRequestId} ({@code [A-Za-z0-9._:-]}), so it never needs escaping.
     */
    static String pending(String requestId) {
        return "{\"requestId\":\"" + requestId + "\",\"status\":\"PENDING\"}";
    }

    private void reply(RoutingContext ctx, int status, JsonObject body, String kind, long startNanos) {
        reply(ctx, status, body.encode(), kind, startNanos);
    }

    private void reply(RoutingContext ctx, int status, String json, String kind, long startNanos) {
        if (ctx.response().ended()) return;
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
        ReplyMeters m = replyMeters.computeIfAbsent(status + "/" + kind, k -> new ReplyMeters(
                metrics.counter("seckill_gateway_requests", "status", Integer.toString(status), "kind", kind),
                Timer.builder("seckill_gateway_accept_latency").tag("kind", kind).publishPercentileHistogram().register(metrics)));
        m.requests().increment();
        m.latency().record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** The meters of one (status, kind) of reply, looked up once rather than on every request. */
    private record ReplyMeters(io.micrometer.core.instrument.Counter requests, Timer latency) {}

    private static String bearer(RoutingContext ctx) {
        String h = ctx.request().getHeader("Authorization");
        return h != null && h.regionMatches(true, 0, "Bearer ", 0, 7) ? h.substring(7).trim() : null;
    }

    private static String traceId(RoutingContext ctx) {
        String given = ctx.request().getHeader("X-Trace-Id");
        if (given != null && TRACE_ID.matcher(given).matches()) return given;
        String parent = ctx.request().getHeader("traceparent");
        if (parent != null) {
            Matcher m = TRACEPARENT.matcher(parent.trim());
            if (m.matches()) return m.group(1);
        }
        return TraceHeaders.newTraceId();
    }

    private static void logWithTrace(String traceId, String format, Object... args) {
        MDC.put("traceId", traceId);
        try {
            LOG.warn(format, args);
        } finally {
            MDC.remove("traceId");
        }
    }

    /** Graceful: stop accepting, let in-flight sends finish (flush), then close. */
    @Override public void close() {
        accepting = false;
        for (HttpServer server : servers) {
            try {
                server.shutdown(10, TimeUnit.SECONDS).toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("HTTP server shutdown: {}", e.getMessage());
            }
        }
        if (producer != null) {
            producer.flush();
            producer.close(Duration.ofSeconds(10));
        }
        if (view != null) view.close();
        if (blocking != null) blocking.shutdownNow();
        if (redis != null) redis.close();
        if (vertx != null) vertx.close();
    }

    public static void main(String[] args) throws Exception {
        ServiceMain.run("ingress-gateway", null, 0, (settings, registry) -> new GatewayApp(settings, registry).start());
    }
}
