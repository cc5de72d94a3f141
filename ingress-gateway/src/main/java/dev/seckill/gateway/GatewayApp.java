package dev.seckill.gateway;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.door.PurchaseRoute;
import dev.seckill.gateway.door.RecentIds;
import dev.seckill.gateway.door.SaleBuckets;
import dev.seckill.gateway.door.SaleWindows;
import dev.seckill.gateway.door.SoldOutMarks;
import dev.seckill.gateway.door.WindowLanes;
import dev.seckill.gateway.http.GatewayProducer;
import dev.seckill.gateway.http.InFlightRequests;
import dev.seckill.gateway.http.JsonBodies;
import dev.seckill.gateway.http.RequestRecordSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.gateway.limit.RateLimiter;
import dev.seckill.gateway.limit.ReadLimiter;
import dev.seckill.gateway.limit.RefusalBudget;
import dev.seckill.gateway.payment.PaymentRoute;
import dev.seckill.gateway.readside.DrawWindowsBackfill;
import dev.seckill.gateway.readside.OutcomeView;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.gateway.status.PurchaseStatusStore;
import dev.seckill.gateway.status.StatusRoute;
import dev.seckill.gateway.status.StatusStack;
import dev.seckill.gateway.status.Waiters;
import dev.seckill.gateway.warmup.GatewayWarmup;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.config.WarmupSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.observability.Console;
import dev.seckill.kit.observability.ServiceMain;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.warmup.LiveSale;
import dev.seckill.kit.warmup.Readiness;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import redis.clients.jedis.UnifiedJedis;

/**
 * The ingress gateway, wired ({@link GatewayWiring}): the routes ({@link PurchaseRoute}, {@link StatusRoute},
 * {@link PaymentRoute}, health;
 * {@code /metrics} on the admin port, {@link AdminPort}) over one Kafka producer (acks=all, idempotent), the door's
 * sale windows and rate limits, the read side ({@link OutcomeView}) and the purchase status ({@link StatusStack}).
 * Start and close here; the rest is in the routes.
 */
public final class GatewayApp implements AutoCloseable {
    private final Settings settings;
    private final GatewaySettings config;
    private final MeterRegistry metrics;
    private final Topics topics;
    private final Clock clock = Clock.systemUTC();
    private final RecentIds acceptedIds;
    /** The most the start spends reading the ledger's past for draw windows (DrawWindowsBackfill). */
    private static final Duration START_READ = Duration.ofSeconds(10);

    private final List<HttpServer> servers = new ArrayList<>();
    private HttpServer admin;
    private HealthRoute health;
    private Vertx vertx;
    private KafkaProducer<String, byte[]> producer;
    private OutcomeView view;
    private UnifiedJedis redis;
    private WindowLanes windowLanes;
    private StatusStack status;
    private Waiters waiters;
    private Jwt jwt;
    private GatewayWiring wiring;
    private final Readiness readiness = Readiness.noWarmup();
    private volatile boolean accepting;

    public GatewayApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.config = GatewaySettings.from(settings);
        this.metrics = metrics;
        this.topics = new Topics(settings.topicPrefix());
        this.acceptedIds = new RecentIds(config.rememberedIds());
    }

    public GatewayApp start() {
        KafkaClients.require(settings, "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        TopicProvisioner.ensure(settings, topics);
        producer = GatewayProducer.create(settings);
        new KafkaClientMetrics(producer).bindTo(metrics);
        jwt = GatewayKeys.buyerIdentity(settings, clock, metrics);
        PaymentRoute.credential(settings); // refuse to start on a bad payment credential, before anything listens
        RateLimiter limiter = rateLimiter();
        redis = RedisConnections.open(settings);
        RedisKeys keys = new RedisKeys(settings.redisPrefix());
        windowLanes = WindowLanes.of(config);
        SaleWindows windows = windowLanes.windows(redis, keys, config);
        metrics.gauge("seckill_gateway_sale_windows", windows, SaleWindows::cachedGoods);
        SoldOutMarks soldOut = SoldOutMarks.renewedFrom(windows, config.soldoutTtlMs(), metrics);
        view = new OutcomeView(
                settings,
                topics,
                config.outcomeCache(),
                soldOut,
                Duration.ofMillis(config.outcomeFetchMaxWaitMs()),
                windows::invalidate);
        metrics.gauge("seckill_gateway_bucketed_goods", view.buckets(), SaleBuckets::splitCount);
        DrawWindowsBackfill.read(settings, topics, view.draws(), START_READ); // before buyers: draws opened earlier
        status = new StatusStack(config, redis, settings, GroupIds.gatewayStatus(settings), topics, keys, clock);
        PurchaseStatusStore store = status.bindTo(metrics).store();
        vertx = Vertx.vertx();
        waiters = new Waiters(vertx, view::outcome);
        view.onOutcome(waiters::decided);
        metrics.gauge("seckill_gateway_waiters", waiters, Waiters::waiting);
        ReadLimiter reads =
                new ReadLimiter(config.limitStatusPerSecond(), config.limitStatusBurst(), config.limitTrackedKeys());
        wiring = new GatewayWiring(
                vertx,
                producer,
                clock,
                waiters,
                () -> accepting,
                config,
                topics,
                metrics,
                jwt,
                limiter,
                reads,
                RefusalBudget.from(settings, config.limitTrackedKeys()),
                acceptedIds,
                windows,
                store,
                new GeneratedIds(GatewayKeys.idSecret(settings, jwt != null)),
                view,
                new InFlightRequests());
        Router router = wiring.routes();
        health = new HealthRoute(vertx, view, redis, readiness);
        serviceRoutes(router, health);
        // the admin port first: one taken fails the start before buyers reach the public port
        admin = AdminPort.listen(vertx, health, metrics, settings.get(SharedSettings.ADMIN_HOST), config.metricsPort());
        servers.addAll(listen(router, config.port()));
        servers.add(admin); // shut down last: scraped while the public port drains
        accepting = true;
        return this;
    }

    private RateLimiter rateLimiter() {
        RateLimiter limiter = RateLimiter.forReplica(
                config.limitGlobalPerSecond(),
                config.limitGoodsPerSecond(),
                config.limitUserPerSecond(),
                config.limitUserBurst(),
                config.limitTrackedKeys(),
                config.replicas());
        metrics.gauge("seckill_gateway_rate_limit_keys", limiter, RateLimiter::trackedKeys);
        return limiter;
    }

    /** The routes beside the purchases: the payment provider's pay endpoint, health (not /metrics: {@link AdminPort}). */
    private void serviceRoutes(Router router, HealthRoute health) {
        Responder responder = new Responder(metrics);
        router.post("/api/orders/:orderId/pay")
                .handler(JsonBodies.jsonOnly(responder))
                .handler(JsonBodies.bounded(1024))
                .handler(new PaymentRoute(
                        settings, topics, clock, responder, new RequestRecordSender(vertx, producer, metrics)))
                .failureHandler(JsonBodies.tooLarge(responder));
        health.mountOn(router);
    }

    /**
     * Warms the whole purchase path through a door of its own ({@link GatewayWarmup}) in the background, {@code /health}
     * answering 503 {@code warming} until it is done; 0 requests: UP at once.
     */
    public GatewayApp warmUpInBackground(int requests) {
        if (requests <= 0) return this;
        readiness.warming();
        Thread t = new Thread(
                () -> {
                    String done;
                    try {
                        done = new GatewayWarmup(this, wiring, settings, redis, windowLanes.flood(), status)
                                .run(requests);
                    } catch (Exception e) {
                        done = "warm-up failed, ready anyway (only the first seconds are slower): " + e;
                    }
                    readiness.up();
                    Console.println("ingress-gateway READY: " + done);
                },
                "gateway-warmup");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** Whether the status store holds every decided purchase (false until its indexer first says so, or rebuilding). */
    public boolean statusComplete() {
        return status != null && status.store().complete();
    }

    /** One server per event loop on {@code port} (0: a free one), all sharing it ({@link HttpListeners}). */
    public List<HttpServer> listen(Router router, int port) {
        return HttpListeners.listen(vertx, router, "gateway", config.host(), port, config.eventLoops());
    }

    public int port() {
        return servers.get(0).actualPort();
    }

    /** The admin port's: {@code /metrics}, {@code /health}, {@code /live} on {@code SECKILL_ADMIN_HOST}. */
    public int metricsPort() {
        return admin.actualPort();
    }

    /** Graceful: stop accepting, answer every waiter (202 PENDING) and request in flight, flush the sends, close. */
    @Override
    public void close() {
        accepting = false;
        if (wiring != null) wiring.closing(); // every waiter answered, then every request in flight
        HttpListeners.shutdown(servers);
        if (producer != null) producer.close(Duration.ofSeconds(10)); // it sends what it holds first
        if (status != null) status.close();
        if (view != null) view.close();
        if (windowLanes != null) windowLanes.close();
        if (health != null) health.close();
        if (redis != null) redis.close();
        if (vertx != null) vertx.close();
        if (jwt != null) jwt.close();
    }

    public static void main(String[] args) throws Exception {
        // the gateway serves its admin port itself, beside its public one (null: ServiceMain starts no metrics server)
        ServiceMain.run("ingress-gateway", null, (settings, registry) -> {
            GatewayApp app = new GatewayApp(settings, registry).start();
            Console.println("ingress-gateway: metrics on http://" + settings.get(SharedSettings.ADMIN_HOST) + ":"
                    + app.metricsPort() + "/metrics, health on /health, liveness on /live (public port " + app.port()
                    + ": /health, /live, no /metrics)");
            return app.warmUpInBackground(
                    LiveSale.warmupUnlessLive(settings, WarmupSettings.gatewayRequests(settings), "ingress-gateway"));
        });
    }
}
