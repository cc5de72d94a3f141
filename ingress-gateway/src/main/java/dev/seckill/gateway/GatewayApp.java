package dev.seckill.gateway;

import dev.seckill.contracts.GroupIds;
import dev.seckill.contracts.TopicProvisioner;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.observability.ServiceMain;
import dev.seckill.contracts.redis.RedisConnections;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.http.JsonBodies;
import dev.seckill.gateway.http.KafkaSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.RedisBatcher;
import dev.seckill.gateway.status.StatusIndexer;
import dev.seckill.gateway.status.Waiters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The ingress gateway, wired: the routes ({@link PurchaseRoute}, {@link StatusRoute}, {@link PaymentRoute}, health,
 * metrics) over one Kafka producer (acks=all, idempotent), the sale-window cache and rate limiter of the door, the
 * read side ({@link OutcomeView}) and the shared purchase status ({@link PurchaseStatusStore}, written by the
 * {@link StatusIndexer}). Start and close here; what each request meets is in the routes.
 */
public final class GatewayApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayApp.class);

    private final Settings settings;
    private final MeterRegistry metrics;
    private final Topics topics;
    private final Clock clock = Clock.systemUTC();
    private final RecentIds acceptedIds;
    private final List<HttpServer> servers = new ArrayList<>();
    private Vertx vertx;
    private KafkaProducer<String, byte[]> producer;
    private OutcomeView view;
    private UnifiedJedis redis;
    private ExecutorService windowLookups;
    private RedisBatcher statusRedis;
    private StatusIndexer indexer;
    private Waiters waiters;
    private volatile boolean accepting;

    public GatewayApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.topics = new Topics(settings.topicPrefix());
        this.acceptedIds = new RecentIds(settings.getInt("gateway.remembered.ids", 1_000_000));
    }

    public GatewayApp start() {
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        TopicProvisioner.ensure(settings.kafkaBootstrap(), topics, TopicProvisioner.DEFAULT_PARTITIONS);
        producer = producer();
        new KafkaClientMetrics(producer).bindTo(metrics);
        Jwt jwt = buyerIdentity();
        PaymentRoute.credential(settings); // refuse to start on a bad payment credential, before anything listens
        RateLimiter limiter = new RateLimiter(settings.getLong("gateway.limit.global.per.second", 100_000),
                settings.getLong("gateway.limit.goods.per.second", 50_000), settings.getLong("gateway.limit.user.per.second", 5),
                settings.getLong("gateway.limit.user.burst", 10), settings.getInt("gateway.limit.tracked.keys", 1_000_000));
        metrics.gauge("seckill_gateway_rate_limit_keys", limiter, RateLimiter::trackedKeys);
        redis = RedisConnections.open(settings);
        RedisKeys keys = new RedisKeys(settings.redisPrefix());
        windowLookups = SaleWindows.lookups(2, settings.getInt("gateway.window.lookup.queue", 1024));
        SaleWindows windows = new SaleWindows(redis, keys, windowLookups, settings.getLong("gateway.window.cache.ms", 1000),
                settings.getInt("gateway.window.cache.goods", 100_000));
        metrics.gauge("seckill_gateway_sale_windows", windows, SaleWindows::cachedGoods);
        view = new OutcomeView(settings.kafkaBootstrap(), topics, settings.getInt("gateway.outcome.cache", 500_000),
                Duration.ofMillis(settings.getLong("gateway.soldout.ttl.ms", 2000)),
                Duration.ofMillis(settings.getLong("gateway.outcome.fetch.max.wait.ms", 500)), windows::invalidate);
        statusRedis = new RedisBatcher(redis, settings.getInt("gateway.status.queue", 100_000), "gateway-status-redis");
        PurchaseStatusStore store = new PurchaseStatusStore(statusRedis, keys,
                Duration.ofMillis(settings.getLong("gateway.status.ttl.ms", Duration.ofDays(2).toMillis())));
        indexer = new StatusIndexer(settings.kafkaBootstrap(), GroupIds.gatewayStatus(settings), topics, store);
        vertx = Vertx.vertx();
        waiters = new Waiters(vertx, view::outcome);
        view.onOutcome(waiters::decided);
        metrics.gauge("seckill_gateway_waiters", waiters, Waiters::waiting);
        Responder responder = new Responder(metrics);
        KafkaSender sender = new KafkaSender(vertx, producer, metrics);
        int maxWait = settings.getInt("gateway.max.wait.seconds", 10);
        GeneratedIds ids = new GeneratedIds(idSecret(jwt != null));
        // an id a gateway issued is PENDING until its outcome is indexed, for as long as the store keeps purchases
        long issuedPendingMs = settings.getLong("gateway.status.ttl.ms", Duration.ofDays(2).toMillis());
        Router router = Router.router(vertx);
        router.post("/api/purchases").handler(JsonBodies.jsonOnly(responder)).handler(JsonBodies.bounded(settings.getInt("gateway.body.limit", 4096)))
                .handler(new PurchaseRoute(new PurchaseRoute.Parts(vertx, topics, clock, metrics, responder, jwt, limiter, acceptedIds,
                        windows, view, sender, store, waiters, ids, () -> accepting, maxWait)))
                .failureHandler(JsonBodies.tooLarge(responder));
        router.get("/api/purchases/:requestId").handler(new StatusRoute(new StatusRoute.Parts(vertx, metrics, responder, jwt, view,
                acceptedIds, store, waiters, ids, issuedPendingMs, maxWait)));
        router.post("/api/orders/:orderId/pay").handler(JsonBodies.jsonOnly(responder)).handler(JsonBodies.bounded(1024))
                .handler(new PaymentRoute(settings, topics, clock, responder, sender)).failureHandler(JsonBodies.tooLarge(responder));
        router.get("/health").handler(this::health);
        if (metrics instanceof PrometheusMeterRegistry prom) {
            router.get("/metrics").handler(ctx -> ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4").end(prom.scrape()));
        }
        listen(router);
        accepting = true;
        return this;
    }

    private KafkaProducer<String, byte[]> producer() {
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
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * The key that signs the requestIds gateways issue, shared by every instance: SECKILL_GATEWAY_ID_SECRET, else one
     * derived from the buyers' JWT secret; with auth off and neither set, one of this instance only (a GET through
     * another instance then learns of such an id only once it is indexed).
     */
    private byte[] idSecret(boolean authOn) {
        String configured = settings.get("gateway.id.secret", "");
        if (!configured.isEmpty()) return GeneratedIds.derivedKey(configured);
        if (authOn) return GeneratedIds.derivedKey(settings.get("gateway.auth.secret", ""));
        byte[] own = new byte[32];
        new java.security.SecureRandom().nextBytes(own);
        return own;
    }

    /** The buyers' identity (HS256 JWT), or null when auth is off (a demo). */
    private Jwt buyerIdentity() {
        if (!Boolean.parseBoolean(settings.get("gateway.auth.enabled", "true"))) return null;
        String secret = settings.get("gateway.auth.secret", "");
        if (secret.length() < 32) {
            throw new IllegalStateException("auth is on and needs an HMAC secret of at least 32 characters in "
                    + "SECKILL_GATEWAY_AUTH_SECRET (or SECKILL_GATEWAY_AUTH_ENABLED=false for a demo)");
        }
        return new Jwt(secret, clock, new Jwt.Policy(settings.get("gateway.auth.issuer", ""), settings.get("gateway.auth.audience", ""),
                Duration.ofSeconds(settings.getLong("gateway.auth.max.lifetime.seconds", Jwt.DEFAULT_MAX_LIFETIME.toSeconds()))));
    }

    private void listen(Router router) {
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
            for (int i = 0; i < loops; i++) {
                servers.add(vertx.createHttpServer(options).requestHandler(router).listen()
                        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
            }
        } catch (Exception e) {
            throw new IllegalStateException("gateway cannot listen on " + options.getHost() + ":" + options.getPort() + ": "
                    + e.getMessage(), e);
        }
        LOG.info("gateway listening on http://{}:{} ({} event loops) -> {}", options.getHost(), port(), loops, topics.commands());
    }

    /** Port 0 means "any free port"; every event loop's server must then share the one picked here. */
    private static int freePort(String host) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no free port on " + host, e);
        }
    }

    public int port() { return servers.get(0).actualPort(); }

    /** The body of an accepted purchase (every 202). */
    static String pending(String requestId) { return Responder.pending(requestId); }

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

    /** Graceful: stop accepting, answer every waiter (202 PENDING), let in-flight sends finish (flush), then close. */
    @Override public void close() {
        accepting = false;
        if (waiters != null) waiters.expireAll();
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
        if (indexer != null) indexer.close();
        if (view != null) view.close();
        if (statusRedis != null) statusRedis.close();
        if (windowLookups != null) windowLookups.shutdownNow();
        if (redis != null) redis.close();
        if (vertx != null) vertx.close();
    }

    public static void main(String[] args) throws Exception {
        ServiceMain.run("ingress-gateway", null, 0, (settings, registry) -> new GatewayApp(settings, registry).start());
    }
}
