package dev.seckill.stack;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** A KRaft node's server.properties and its log4j2 configuration, as {@link KafkaBroker} writes them. */
final class BrokerProperties {
    private BrokerProperties() {}

    static final String LOG4J2 = """
            status = warn
            appender.console.type = Console
            appender.console.name = STDOUT
            appender.console.layout.type = PatternLayout
            appender.console.layout.pattern = [%d] %p %m (%c)%n
            rootLogger.level = WARN
            rootLogger.appenderRef.stdout.ref = STDOUT
            logger.server.name = kafka.server.KafkaRaftServer
            logger.server.level = INFO
            logger.kafka.name = kafka.Kafka
            logger.kafka.level = INFO
            """;

    /** @param security null, or what secures the node: its listeners, SASL, TLS and authorizer, put last */
    static String of(
            int nodeId,
            String voters,
            int port,
            int controllerPort,
            Path data,
            int replication,
            BrokerSecurity security) {
        Properties p = new Properties();
        p.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", Integer.toString(nodeId)),
                Map.entry("controller.quorum.voters", voters),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", data.toString()),
                Map.entry("num.partitions", "12"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("offsets.topic.replication.factor", Integer.toString(replication)),
                Map.entry("offsets.topic.num.partitions", "8"),
                Map.entry("transaction.state.log.replication.factor", Integer.toString(replication)),
                Map.entry("transaction.state.log.min.isr", Integer.toString(Math.max(1, replication - 1))),
                Map.entry("transaction.state.log.num.partitions", "8"),
                Map.entry("share.coordinator.state.topic.replication.factor", Integer.toString(replication)),
                Map.entry("share.coordinator.state.topic.min.isr", Integer.toString(Math.max(1, replication - 1))),
                // a cluster's topics: every partition on every node, a write acknowledged by two (acks=all)
                Map.entry("default.replication.factor", Integer.toString(replication)),
                Map.entry("min.insync.replicas", Integer.toString(Math.max(1, replication - 1))),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // a dead broker is fenced (its partitions led elsewhere) after 4 s without a heartbeat, not Kafka's 9
                // s:
                // chaos kill-broker on 3 nodes paused the sale 12.6 s with the defaults (docs/operations.md)
                Map.entry("broker.heartbeat.interval.ms", "1000"),
                Map.entry("broker.session.timeout.ms", "4000"),
                // a dead stream instance is noticed after its own (short) session, not a 6 s floor, and its
                // open
                // transaction is aborted within a second of its timeout, not up to 10 s later (docs/reliability.md)
                Map.entry("group.min.session.timeout.ms", "1000"),
                Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
                Map.entry("log.retention.hours", "-1")));
        if (security != null) p.putAll(security.serverProperties(port, controllerPort));
        var out = new StringWriter();
        try {
            p.store(out, "written by seckill local-stack");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
