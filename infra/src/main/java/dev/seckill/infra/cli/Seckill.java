package dev.seckill.infra.cli;

import dev.seckill.contracts.config.Settings;
import dev.seckill.contracts.config.Unreachable;
import dev.seckill.contracts.redis.RedisConnections;
import dev.seckill.infra.stack.LocalStack;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.Reconciler;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/** The operator's and analyst's command line behind {@code ./seckill}. */
public final class Seckill {
    static final String USAGE = """
            usage: ./seckill <command>
              up                       start (or find) Kafka, Redis and MySQL; say what was done
              down [--wipe]            stop what 'up' started; --wipe also deletes the local broker's topics
              status                   each component, its address, UP or DOWN
              demo [--stock N --requests N --concurrency N --users N --goods N --seed N --warmup N --answer N]
                                       the write-up's flash sale end to end, with a report and the time to answer
              sale open --goods N --stock N [--minutes N --limit N --force]
              sale close --goods N
              reconcile [--goods N] [--repair]
                                       ledger vs Redis vs DB, one row per goods; a dry run unless --repair
              bench decide [--commands N --goods N --threads N --commit-ms N --raw N]
                                       stock-stream decisions/s next to raw Lua ops/s
              bench orders [--orders N --batch N]
                                       order-writer orders/s next to raw single-row and batched INSERT rows/s
              bench gateway [--requests N --concurrency N --warmup N --rate R --closed-only --generator raw|jvm]
                                       accepted/s and accept latency p50/p99/p99.9 with a real broker
              bench answer [--commit-intervals 20,50,100 --rate R --seconds N --sequential N --requests N
                            --concurrency N --warmup N --decide N --poll-ms N --caught-up-ms N]
                                       time to answer (Prefer: wait) through the whole pipeline per commit interval,
                                       next to accept latency and decisions/s
              run <service>            one service in the foreground: stock-stream | order-writer | gateway | reconciler
              test                     the whole test suite (the launcher runs Maven)
            configuration: SECKILL_KAFKA_BOOTSTRAP, SECKILL_REDIS_URL, SECKILL_REDIS_CLUSTER, SECKILL_DB_URL,
                           SECKILL_DB_USER, SECKILL_DB_PASSWORD, SECKILL_TOPIC_PREFIX, SECKILL_REDIS_PREFIX""";

    private Seckill() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    public static int run(String[] args, PrintStream out) {
        Settings settings = Settings.fromEnvironment();
        Path home = Path.of(System.getenv().getOrDefault("SECKILL_HOME", ".seckill"));
        if (args.length == 0) {
            out.println(USAGE);
            return 2;
        }
        try {
            switch (args[0]) {
                case "up" -> new LocalStack(settings, home, out).up();
                case "down" -> new LocalStack(settings, home, out).down(java.util.Arrays.asList(args).contains("--wipe"));
                case "status" -> {
                    return new LocalStack(settings, home, out).status() ? 0 : 1;
                }
                case "demo" -> {
                    return DemoCommand.run(settings, new LocalStack(settings, home, out), args, out);
                }
                case "sale" -> {
                    return SaleCommand.run(settings, args, out);
                }
                case "bench" -> {
                    if (args.length < 2) throw new Flags.UsageError("bench needs 'decide', 'orders', 'gateway' or 'answer'");
                    return switch (args[1]) {
                        case "decide" -> dev.seckill.infra.bench.DecideBenchmark.run(settings, args, out);
                        case "orders" -> dev.seckill.infra.bench.OrdersBenchmark.run(settings, args, out);
                        case "gateway" -> dev.seckill.infra.bench.GatewayBenchmark.run(settings, args, out);
                        case "answer" -> dev.seckill.infra.bench.AnswerBenchmark.run(settings, args, out);
                        default -> throw new Flags.UsageError("unknown benchmark '" + args[1] + "'");
                    };
                }
                case "reconcile" -> {
                    return reconcile(settings, args, out);
                }
                case "help", "--help", "-h" -> out.println(USAGE);
                default -> {
                    System.err.println("seckill: unknown command '" + args[0] + "'\n" + USAGE);
                    return 2;
                }
            }
            return 0;
        } catch (Unreachable | Flags.UsageError e) {
            System.err.println("seckill: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("seckill " + args[0] + " failed: " + e.getMessage());
            return 1;
        }
    }

    private static int reconcile(Settings settings, String[] args, PrintStream out) throws Exception {
        Flags f = new Flags(args, 1, Set.of("goods"), Set.of("repair"));
        Long goods = f.has("goods") ? f.getLong("goods", 0) : null;
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), "run ./seckill up");
        try (UnifiedJedis redis = RedisConnections.open(settings); var db = Database.open(settings, "reconcile");
             var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(java.util.Map.of(
                     "bootstrap.servers", settings.kafkaBootstrap(), "acks", "all"),
                     new org.apache.kafka.common.serialization.StringSerializer(),
                     new org.apache.kafka.common.serialization.ByteArraySerializer());
             Reconciler reconciler = new Reconciler(settings, db, redis, producer,
                     new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), !f.has("repair"))) {
            List<Reconciler.Row> rows = reconciler.cycle(goods);
            out.print(Reconciler.render(rows));
            if (rows.isEmpty()) out.println("(no goods in " + settings.topicPrefix() + "ledger)");
            if (!f.has("repair")) out.println("(dry run: nothing repaired; --repair to act)");
            return rows.stream().allMatch(r -> r.verdict().equals("OK")) ? 0 : 1;
        }
    }
}
