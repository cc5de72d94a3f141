package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** What {@link WriterReorder} reads and does outside the pipeline: the writer's process, the outcome topics, the order rows. */
final class WriterReorderReads {
    private static final String WRITER_MAIN = "dev.seckill.order.OrderWriterApp";

    private WriterReorderReads() {}

    /**
     * SIGKILL of the pipeline's order-writer — the one JVM among this one's descendants that runs its main class (as
     * {@code ./seckill run order-writer} starts it) — without a restart; returns its pid. The pipeline's own restart
     * ({@code killAndRestart}) later finds it dead and starts it again.
     */
    static long sigkillWriter() throws Exception {
        List<ProcessHandle> writers = ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .filter(WriterReorderReads::runsTheWriter)
                .toList();
        if (writers.size() != 1)
            throw new IllegalStateException(
                    "expected one order-writer process among this JVM's descendants, found " + writers.size());
        ProcessHandle writer = writers.get(0);
        if (!writer.destroyForcibly()) throw new IllegalStateException("SIGKILL of order-writer " + writer.pid());
        writer.onExit().get(30, TimeUnit.SECONDS);
        return writer.pid();
    }

    /**
     * Whether {@code p}'s command line names the writer's main class: read whole from {@code /proc/<pid>/cmdline}, since
     * {@link ProcessHandle.Info} cuts it at 4,096 characters (the service's classpath alone is longer).
     */
    static boolean runsTheWriter(ProcessHandle p) {
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
            return Arrays.asList(new String(cmdline, StandardCharsets.UTF_8).split("\0"))
                    .contains(WRITER_MAIN);
        } catch (IOException | RuntimeException e) {
            return p.info().commandLine().map(c -> c.contains(WRITER_MAIN)).orElse(false);
        }
    }

    /** {@code n} buyers holding a SUCCESS of the goods (one purchase each), picked at seeded random. */
    static List<WriterReorder.Buyer> holders(ChaosTarget t, int n) throws Exception {
        Map<Long, String> byBuyer = new LinkedHashMap<>();
        for (JsonNode o : SaleRecords.outcomes(t, t.goods))
            if (o.path("outcome").asText().equals("SUCCESS"))
                byBuyer.putIfAbsent(
                        o.path("userId").asLong(), o.path("requestId").asText());
        List<Long> users = new ArrayList<>(byBuyer.keySet());
        Collections.sort(users);
        Collections.shuffle(users, t.random);
        if (users.size() < n)
            throw new IllegalStateException("only " + users.size() + " buyers held a SUCCESS, " + n + " wanted");
        List<WriterReorder.Buyer> out = new ArrayList<>();
        for (long u : users.subList(0, n))
            out.add(new WriterReorder.Buyer(u, new ArrayList<>(List.of(byBuyer.get(u)))));
        return out;
    }

    /** requestId → the outcomes the goods' purchase under it was decided, as read from the outcome topics now. */
    static Map<String, List<String>> decisions(ChaosTarget t) throws Exception {
        return SaleRecords.decisions(SaleRecords.outcomes(t, t.goods));
    }

    /** Waits (at most 60 s) until each of {@code rids} has its outcome: the stream decided it. */
    static void awaitOutcomes(ChaosTarget t, List<String> rids) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<String, List<String>> decided = decisions(t);
            List<String> waiting =
                    rids.stream().filter(r -> !decided.containsKey(r)).toList();
            if (waiting.isEmpty()) return;
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(
                        waiting.size() + " re-buys not decided in 60 s, first " + waiting.get(0));
            TimeUnit.MILLISECONDS.sleep(200); // stock-stream, another process, decides them
        }
    }

    /** The requestIds of every SUCCESS of the goods decided so far. */
    static Set<String> successes(ChaosTarget t) throws Exception {
        Set<String> out = new HashSet<>();
        decisions(t).forEach((rid, kinds) -> {
            if (kinds.contains("SUCCESS")) out.add(rid);
        });
        return out;
    }

    /** The requestIds the goods' order rows carry (every status); empty while the DB cannot be read. */
    static Set<String> rowsFor(ChaosTarget t) {
        try (Connection c = t.db()) {
            return SaleRecords.orders(c, t.goods).keySet();
        } catch (Exception e) {
            return Set.of();
        }
    }
}
