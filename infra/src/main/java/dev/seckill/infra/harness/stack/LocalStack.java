package dev.seckill.infra.harness.stack;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import dev.seckill.stack.KafkaBroker;
import dev.seckill.stack.KafkaCluster;
import dev.seckill.stack.MariaDbServer;
import dev.seckill.stack.RedisServer;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * {@code ./seckill up|down|status}: Kafka (KRaft, from the Maven jars), Redis and a MySQL-compatible server.
 * A server that already answers at the configured address is used as it is; a missing one is started on
 * loopback under {@code .seckill/} (installed from Debian packages first when its binary is missing and we are root).
 * Only what this tool started is stopped by {@code down}.
 */
public final class LocalStack {
    private final Settings settings;
    private final Path home;
    private final PrintStream out;

    public LocalStack(Settings settings, Path home, PrintStream out) {
        this.settings = settings;
        this.home = home.toAbsolutePath();
        this.out = out;
    }

    public void up() {
        up(1);
    }

    /** Redis, MySQL and Kafka: one broker (the quick start), or a KRaft cluster of {@code brokers} nodes on loopback. */
    public void up(int brokers) {
        redis();
        mysql();
        if (brokers <= 1) {
            kafka();
        } else {
            kafkaCluster(brokers);
        }
    }

    /** The cluster {@code up --brokers N} starts: broker ports from the configured port + 100, two per node. */
    KafkaCluster cluster(int brokers) {
        HostPort hp = HostPort.parse(settings.kafkaBootstrap().split(",")[0]);
        return KafkaCluster.at(home.resolve("kafka-cluster"), brokers, hp.port() + 100);
    }

    private void kafkaCluster(int brokers) {
        KafkaCluster cluster = cluster(brokers);
        if (KafkaBroker.answersMetadata(cluster.bootstrap())) {
            out.println("kafka    " + cluster.bootstrap() + "  answers (using it)");
        } else {
            out.println("kafka    starting a " + brokers + "-node KRaft cluster (replication factor " + brokers
                    + ", min.insync.replicas " + (brokers - 1) + "; logs: "
                    + home.resolve("kafka-cluster/node-*/broker.log") + ")");
            cluster.start();
            for (int i = 1; i <= brokers; i++) {
                out.println("kafka    node " + i + " " + cluster.node(i).bootstrap() + "  started (pid "
                        + cluster.node(i).process().pid() + ")");
            }
        }
        out.println("kafka    point the services and commands at it: export SECKILL_KAFKA_BOOTSTRAP="
                + cluster.bootstrap());
    }

    private void kafka() {
        String bootstrap = settings.kafkaBootstrap();
        if (KafkaBroker.answersMetadata(settings)) {
            out.println("kafka    " + bootstrap + "  answers (using it)");
            return;
        }
        HostPort hp = HostPort.parse(bootstrap.split(",")[0]);
        requireLoopback("Kafka", hp);
        out.println("kafka    " + bootstrap + "  starting a single-node KRaft broker (logs: "
                + home.resolve("kafka/broker.log") + ")");
        KafkaBroker broker = new KafkaBroker(home.resolve("kafka"), hp.port(), hp.port() + 1).start();
        out.println("kafka    " + broker.bootstrap() + "  started (pid "
                + broker.process().pid() + ")");
    }

    private void redis() {
        URI u = URI.create(settings.redisUrl());
        HostPort hp = new HostPort(u.getHost(), u.getPort() < 0 ? 6379 : u.getPort());
        if (ServerProcess.answers(hp.host(), hp.port())) {
            out.println("redis    " + hp + "  answers (using it)");
            return;
        }
        requireLoopback("Redis", hp);
        new RedisServer(hp.port(), home.resolve("redis"), List.of()).start();
        mark("redis");
        out.println("redis    " + hp + "  started redis-server (data: " + home.resolve("redis") + ")");
    }

    private void mysql() {
        HostPort hp = HostPort.parse(Unreachable.jdbcHostPort(settings.dbUrl()));
        if (ServerProcess.answers(hp.host(), hp.port())) {
            out.println("mysql    " + hp + "  answers (using it)");
            return;
        }
        requireLoopback("MySQL", hp);
        new MariaDbServer(hp.port(), home.resolve("mariadb")).start();
        mark("mariadb");
        out.println("mysql    " + hp + "  started mariadbd (data: " + home.resolve("mariadb") + ")");
    }

    public void down() {
        down(false);
    }

    /**
     * Stops what {@code up} started; with {@code wipe} also deletes the local broker's data (every topic of every
     * namespace, e.g. after a day of tests and benchmarks that left thousands of partitions and a slow broker).
     */
    public void down(boolean wipe) {
        stopPid("kafka", home.resolve("kafka/kafka.pid"));
        for (int i = 1; i <= 9; i++) stopPid("kafka-" + i, home.resolve("kafka-cluster/node-" + i + "/kafka.pid"));
        if (wipe) wipeKafka();
        if (Files.exists(home.resolve("started-redis"))) {
            URI u = URI.create(settings.redisUrl());
            new RedisServer(u.getPort() < 0 ? 6379 : u.getPort(), home.resolve("redis"), List.of()).stop();
            unmark("redis");
            out.println("redis    stopped");
        }
        if (Files.exists(home.resolve("started-mariadb"))) {
            stopPid("mysql", home.resolve("mariadb/mariadbd.pid"));
            unmark("mariadb");
        }
    }

    private void wipeKafka() {
        Path data = home.resolve("kafka/data");
        if (!Files.isDirectory(data)) {
            out.println("kafka    nothing to wipe (" + data + " does not exist)");
            return;
        }
        if (KafkaBroker.answersMetadata(settings)) {
            out.println("kafka    not wiped: a broker still answers at " + settings.kafkaBootstrap()
                    + " (not one 'up' started?)");
            return;
        }
        try (var files = Files.walk(data)) {
            List<Path> all = files.sorted(Comparator.reverseOrder()).toList();
            long partitions;
            try (var dirs = Files.list(data)) {
                partitions = dirs.filter(Files::isDirectory).count();
            }
            for (Path p : all) Files.delete(p);
            out.println("kafka    wiped " + data + " (" + partitions + " partition directories)");
        } catch (IOException e) {
            out.println("kafka    wipe failed: " + e.getMessage());
        }
    }

    /** Kafka, Redis and MySQL as the settings name them, each UP when it answers. */
    public List<Component> components() {
        URI u = URI.create(settings.redisUrl());
        HostPort redis = new HostPort(u.getHost(), u.getPort() < 0 ? 6379 : u.getPort());
        HostPort mysql = HostPort.parse(Unreachable.jdbcHostPort(settings.dbUrl()));
        return List.of(
                new Component("kafka", settings.kafkaBootstrap(), KafkaBroker.answersMetadata(settings), ""),
                new Component("redis", redis.toString(), ServerProcess.answers(redis.host(), redis.port()), ""),
                new Component("mysql", mysql.toString(), ServerProcess.answers(mysql.host(), mysql.port()), ""));
    }

    private void stopPid(String name, Path pidFile) {
        Pids.stop(out, name, pidFile);
    }

    private static void requireLoopback(String what, HostPort hp) {
        if (!hp.host().equals("127.0.0.1") && !hp.host().equals("localhost")) {
            throw new Unreachable(what, hp.toString(), "not on this machine, so it cannot be started here");
        }
    }

    private void mark(String what) {
        try {
            Files.createDirectories(home);
            Files.writeString(home.resolve("started-" + what), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void unmark(String what) {
        try {
            Files.deleteIfExists(home.resolve("started-" + what));
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    record HostPort(String host, int port) {
        static HostPort parse(String s) {
            int i = s.lastIndexOf(':');
            return new HostPort(s.substring(0, i), Integer.parseInt(s.substring(i + 1)));
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
