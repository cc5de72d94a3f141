package dev.seckill.reconcile;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.DbPools;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.observability.ServiceMain;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.kit.warmup.Readiness;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The reconciler service: a {@link Reconciler} cycle every {@code reconcile.interval.ms} (default 5 s), repairing
 * unless {@code reconcile.dry.run=true}. The schema is order-writer's (Flyway there); this service only uses it.
 */
public final class ReconcilerApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReconcilerApp.class);

    private final Settings settings;
    private final MeterRegistry metrics;
    private HikariDataSource db;
    private UnifiedJedis redis;
    private KafkaProducer<String, byte[]> producer;
    private Reconciler reconciler;
    private ScheduledExecutorService timer;
    private volatile List<Reconciler.Row> last = List.of();

    public ReconcilerApp(Settings settings, MeterRegistry metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    /**
     * The shared pool configuration as it is: no minimum idle or connection timeout of its own, no migrations; its
     * series ({@code hikaricp_*{pool="<name>"}}) on {@code metrics}.
     */
    public static HikariDataSource pool(Settings settings, String name, MeterRegistry metrics) {
        return new HikariDataSource(
                DbPools.config(settings, name, settings.get(ReconcilerSettings.POOL_SIZE), metrics));
    }

    public ReconcilerApp start() throws Exception {
        KafkaClients.require(settings, "run ./seckill up or set SECKILL_KAFKA_BOOTSTRAP");
        db = pool(settings, "reconciler", metrics);
        redis = RedisConnections.open(settings);
        producer = ReliableProducers.create(settings);
        ReconcilerSettings config = ReconcilerSettings.from(settings);
        boolean dryRun = config.dryRun();
        reconciler = new Reconciler(settings, db, redis, producer, metrics, dryRun);
        long every = config.intervalMs();
        timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "reconciler"));
        timer.scheduleWithFixedDelay(this::cycleQuietly, every, every, TimeUnit.MILLISECONDS);
        LOG.info("reconciler started: every {} ms{}", every, dryRun ? " (dry run)" : "");
        return this;
    }

    /** One cycle now (also what the timer runs). */
    public synchronized List<Reconciler.Row> cycle() throws Exception {
        last = reconciler.cycle(null);
        metrics.counter("seckill_reconcile_cycles").increment();
        return last;
    }

    private void cycleQuietly() {
        try {
            cycle();
        } catch (Exception e) {
            metrics.counter("seckill_reconcile_errors").increment();
            LOG.warn("reconcile cycle failed (next one as scheduled): {}", e.getMessage());
        }
    }

    public List<Reconciler.Row> lastReport() {
        return last;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (reconciler != null) reconciler.close();
        if (producer != null) producer.close();
        if (redis != null) redis.close();
        if (db != null) db.close();
    }

    public static void main(String[] args) throws Exception {
        // /health beside /metrics: 503 "starting" until the service is wired, then 200 (it has no warm-up)
        Readiness readiness = new Readiness(Readiness.State.STARTING);
        ServiceMain.run(
                "reconciler",
                ReconcilerSettings.METRICS_PORT,
                (settings, registry) -> {
                    ReconcilerApp app = new ReconcilerApp(settings, registry).start();
                    readiness.up();
                    return app;
                },
                readiness);
    }
}
