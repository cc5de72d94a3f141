package dev.seckill.infra.harness;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.redis.RedisKeys;
import dev.seckill.gateway.GatewayApp;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.OrderWriterApp;
import dev.seckill.stock.StockStreamApp;
import dev.seckill.stock.StockStreamSettings;
import dev.seckill.stock.bucket.HopSeal;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import redis.clients.jedis.UnifiedJedis;

/** The whole pipeline of one namespace in this JVM: stock-stream, order-writer and the gateway, wired for a run. */
public final class Pipeline implements AutoCloseable {
    private Namespace ns;
    private final Topics topics;
    private final RedisKeys keys;
    private final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private StockStreamApp stream;
    private OrderWriterApp writer;
    private GatewayApp gateway;
    private UnifiedJedis redis;
    private KafkaProducer<String, byte[]> commands;

    private final Jwt jwt;
    private final String paymentSecret;
    private final Map<String, Map<String, String>> identities = new HashMap<>();

    /**
     * The pipeline of a namespace; the gateway's auth is on, with a secret of this run unless one is configured, and
     * its pay endpoint takes the simulated payment provider's credential, also of this run unless configured.
     */
    public Pipeline(Namespace ns) {
        String secret = ns.settings().get(GatewaySettings.AUTH_SECRET);
        if (secret.isEmpty()) {
            secret = UUID.randomUUID() + "-" + UUID.randomUUID();
            ns = new Namespace(ns.name(), ns.settings().and(Map.of(GatewaySettings.AUTH_SECRET.name(), secret)));
        }
        String payments = ns.settings().get(GatewaySettings.PAYMENT_SECRET);
        if (payments.isEmpty()) {
            payments = "pay-" + UUID.randomUUID() + "-" + UUID.randomUUID();
            ns = new Namespace(ns.name(), ns.settings().and(Map.of(GatewaySettings.PAYMENT_SECRET.name(), payments)));
        }
        this.paymentSecret = payments;
        this.jwt = new Jwt(secret, Clock.systemUTC());
        this.ns = ns;
        this.topics = new Topics(ns.settings().topicPrefix());
        this.keys = new RedisKeys(ns.settings().redisPrefix());
    }

    /**
     * Before {@link #start()}: one part connects to Kafka with settings of its own on top of the namespace's (a principal
     * of its own on a secured cluster) — {@code stock-stream}, {@code order-writer}, {@code ingress-gateway}, {@code
     * upstream} (the commands {@link #send} sends) or {@code operator} (the topics {@link #start()} creates).
     */
    public Pipeline as(String part, Map<String, String> kafka) {
        identities.put(part, Map.copyOf(kafka));
        return this;
    }

    /** The settings a part runs with. */
    public Settings settingsOf(String part) {
        return ns.settings().and(identities.getOrDefault(part, Map.of()));
    }

    public Pipeline start() {
        TopicProvisioner.ensure(settingsOf("operator"), topics, ns.settings().get(SharedSettings.TOPIC_PARTITIONS));
        redis = RedisConnections.open(ns.settings());
        writer = new OrderWriterApp(settingsOf("order-writer"), metrics).start();
        Settings streamSettings = DrawBeacons.with(settingsOf("stock-stream"));
        if (!streamSettings.isSet(StockStreamSettings.HOP_SECRET)) // one stream here: a key of its own for its hops
        streamSettings = streamSettings.and(Map.of(StockStreamSettings.HOP_SECRET.name(), HopSeal.freshKey()));
        stream = new StockStreamApp(streamSettings, metrics).start();
        gateway = new GatewayApp(settingsOf("ingress-gateway"), metrics).start();
        commands = ReliableProducers.create(settingsOf("upstream"));
        stream.awaitRunning(Duration.ofSeconds(60));
        return this;
    }

    /** Sends a command to {@code <prefix>commands}, keyed by goods id, and waits for Kafka's acknowledgment; its offset. */
    public long send(Command command) {
        try {
            return commands.send(new ProducerRecord<>(topics.commands(), command.key(), CommandCodec.encode(command)))
                    .get(30, TimeUnit.SECONDS)
                    .offset();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send " + command + ": " + e.getMessage(), e);
        }
    }

    /** Opens a sale that started a second ago through the commands topic and waits until stock-stream applied it. */
    public void openSale(long goodsId, long stock, Duration length, int perUserLimit) {
        openSale(goodsId, stock, length, perUserLimit, 1);
    }

    /** As above, the stock split across {@code buckets} (docs/decisions.md, "Stock buckets"). */
    public void openSale(long goodsId, long stock, Duration length, int perUserLimit, int buckets) {
        open(Sales.started(goodsId, stock, length, perUserLimit, ns.name() + "-open-" + goodsId)
                .withBuckets(buckets));
    }

    /** Sends {@code open} and waits (at most 60 s) until stock-stream applied it to Redis ({@link Sales#awaitApplied}). */
    public void open(OpenSale open) {
        long offset = send(open);
        try {
            Sales.awaitApplied(redis, keys, open.goodsId(), offset, Duration.ofSeconds(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the sale of goods " + open.goodsId() + " opened", e);
        }
    }

    /** An {@code Authorization} header value for a simulated buyer (an HS256 token valid for an hour). */
    public String bearer(long userId) {
        return "Bearer " + jwt.mint(userId, Instant.now().plusSeconds(3600));
    }

    /** The {@code Authorization} header value of the simulated payment provider (the only caller the pay endpoint takes). */
    public String paymentProvider() {
        return "Bearer " + paymentSecret;
    }

    /** The first column of the first row of a query on this run's database, as text; null when there is no row. */
    public String queryOne(String sql, Object... args) throws SQLException {
        try (Connection c = db().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /**
     * The order the writer made of a purchase, or null while it has not written it. A purchase is (goodsId, requestId):
     * this is for a test whose requestIds are unique across its goods, and refuses an id two goods share.
     */
    public Long orderIdOf(String requestId) throws SQLException {
        if (Long.parseLong(queryOne("SELECT COUNT(*) FROM purchase_order WHERE request_id = ?", requestId)) > 1)
            throw new IllegalStateException(
                    "requestId " + requestId + " names orders of several goods: name the goods");
        String id = queryOne("SELECT order_id FROM purchase_order WHERE request_id = ?", requestId);
        return id == null ? null : Long.valueOf(id);
    }

    public Namespace namespace() {
        return ns;
    }

    public Topics topics() {
        return topics;
    }

    public RedisKeys keys() {
        return keys;
    }

    public UnifiedJedis redis() {
        return redis;
    }

    public DataSource db() {
        return writer.dataSource();
    }

    public int gatewayPort() {
        return gateway.port();
    }

    /** The gateway's admin port: its {@code /metrics} (the pipeline's one registry), {@code /health}, {@code /live}. */
    public int gatewayMetricsPort() {
        return gateway.metricsPort();
    }

    public PrometheusMeterRegistry metrics() {
        return metrics;
    }

    @Override
    public void close() {
        if (gateway != null) gateway.close();
        if (stream != null) stream.close();
        if (writer != null) writer.close();
        if (commands != null) commands.close();
        if (redis != null) redis.close();
    }
}
