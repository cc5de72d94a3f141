package dev.seckill.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft cluster of {@code n} combined broker+controller nodes on loopback ports, each in its own JVM: production's
 * shape on one machine. Topics default to replication factor {@code n} and {@code min.insync.replicas} {@code n-1},
 * so with acks=all a write survives the loss of one node.
 */
public final class KafkaCluster implements AutoCloseable {
    private final List<KafkaBroker> nodes;

    private KafkaCluster(List<KafkaBroker> nodes) {
        this.nodes = nodes;
    }

    /** {@code n} nodes on fixed ports: broker {@code basePort + 2i}, controller {@code basePort + 2i + 1}, data under {@code dir/node-i}. */
    public static KafkaCluster at(Path dir, int n, int basePort) {
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < n; i++) ports.add(new int[] {basePort + 2 * i, basePort + 2 * i + 1});
        return of(dir, ports);
    }

    /** {@code n} nodes on free ports in a fresh temporary folder. */
    public static KafkaCluster onFreePorts(int n) {
        try {
            Path dir = ServerProcess.tempDir("seckill-kafka-cluster-");
            List<int[]> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) ports.add(new int[] {ServerProcess.freePort(), ServerProcess.freePort()});
            return of(dir, ports);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static KafkaCluster of(Path dir, List<int[]> ports) {
        String voters = IntStream.range(0, ports.size())
                .mapToObj(i -> (i + 1) + "@127.0.0.1:" + ports.get(i)[1])
                .collect(Collectors.joining(","));
        Path idFile = dir.resolve("cluster.id");
        String clusterId;
        try {
            Files.createDirectories(dir);
            if (!Files.exists(idFile))
                Files.writeString(idFile, Uuid.randomUuid().toString());
            clusterId = Files.readString(idFile).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<KafkaBroker> nodes = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            nodes.add(new KafkaBroker(
                    dir.resolve("node-" + (i + 1)),
                    ports.get(i)[0],
                    ports.get(i)[1],
                    i + 1,
                    voters,
                    clusterId,
                    ports.size()));
        }
        return new KafkaCluster(nodes);
    }

    /** Starts every node (all at once: a node answers only once a quorum of controllers runs) and waits for each. */
    public KafkaCluster start() {
        nodes.forEach(KafkaBroker::launch);
        nodes.forEach(KafkaBroker::awaitReady);
        return this;
    }

    /** Every node's address, comma-separated, as a client's bootstrap.servers. */
    public String bootstrap() {
        return nodes.stream().map(KafkaBroker::bootstrap).collect(Collectors.joining(","));
    }

    /** Node {@code id} (1-based, as Kafka numbers them). */
    public KafkaBroker node(int id) {
        return nodes.get(id - 1);
    }

    public int size() {
        return nodes.size();
    }

    @Override
    public void close() {
        nodes.forEach(KafkaBroker::stop);
    }
}
