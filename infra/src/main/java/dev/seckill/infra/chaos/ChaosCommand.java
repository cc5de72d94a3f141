package dev.seckill.infra.chaos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaCluster;
import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code ./seckill chaos}: each scenario breaks the running pipeline (its services as processes of their own) the way
 * production breaks it, lets it drain, and checks the invariants from the outside: nothing oversold, no buyer with
 * two units, every SUCCESS told to a buyer has its order, no buyer told DUPLICATE without one, every request answered.
 * One table; exit 1 on any violation. Every loop is bounded in count and time; only loopback addresses.
 */
public final class ChaosCommand {
    private ChaosCommand() {}

    public static int run(Settings base, Flags f, PrintStream out) throws Exception {
        List<ChaosScenario> scenarios = new ArrayList<>();
        for (String name : f.get("scenario").split(","))
            if (name.equals("all")) scenarios.addAll(ChaosScenario.ALL);
            else scenarios.add(ChaosScenario.named(name));
        long seed = f.getLong("seed");
        ChaosRun.Sale sale = new ChaosRun.Sale(
                f.getLong("stock"),
                (int) f.getLong("requests"),
                (int) f.getLong("concurrency"),
                (int) f.getLong("users"),
                (int) f.getLong("buckets"));
        ChaosRun.Shape shape =
                new ChaosRun.Shape((int) f.getCount("stream-instances"), warmup(f), f.getCount("restart-after-ms"));
        int brokers = (int) f.getCount("brokers");
        if (brokers != 1 && brokers != 3) throw new Flags.UsageError("--brokers must be 1 or 3, got " + brokers);
        String run = "chaos-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        // with --json stdout is the document only: what each scenario does goes to stderr
        PrintStream say = f.has("json") ? System.err : out;
        say.printf(
                "chaos: %s; each on a sale of %,d units%s, %,d purchases from %d buyers at once over %,d buyers (those"
                        + " left when the fault starts spread over %d s), seed %d; %d stock-stream instance(s)%s%s%n",
                scenarios.stream().map(ChaosScenario::name).collect(Collectors.joining(", ")),
                sale.stock(),
                sale.buckets() > 1 ? " in " + sale.buckets() + " buckets" : "",
                sale.requests(),
                sale.concurrency(),
                sale.users(),
                ChaosRun.SPREAD_AFTER_FAULT_MS / 1000,
                seed,
                shape.streamInstances(),
                shape.env().isEmpty() ? ", every service with its defaults" : ", " + shape.env(),
                shape.restartAfterMs() > 0
                        ? String.format(
                                "; a service SIGKILLed by kill-stream, kill-writer or kill-gateway started again %,d ms later",
                                shape.restartAfterMs())
                        : "");
        List<ChaosRun.Result> results = new ArrayList<>();
        // with 3 brokers every scenario runs on a cluster of the run's own (RF 3, min ISR 2), which kill-broker breaks
        try (KafkaCluster cluster = brokers == 3 ? KafkaCluster.onFreePorts(3) : null) {
            if (cluster != null) {
                // an interrupted run (Ctrl-C) leaves no broker behind
                Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "chaos-cluster-stop"));
                say.printf("chaos: starting a 3-node KRaft cluster of its own on loopback (RF 3, min ISR 2)%n");
                say.printf("chaos: cluster at %s%n", cluster.start().bootstrap());
            }
            for (int i = 0; i < scenarios.size(); i++)
                results.add(ChaosRun.run(base, cluster, run, scenarios.get(i), sale, shape, seed + i, say));
        }
        if (f.has("json")) out.println(json(results, brokers, f.effective()));
        else print(out, results, brokers);
        return results.stream().allMatch(ChaosRun.Result::passed) ? 0 : 1;
    }

    /** {@code --warmup N}: both services' warm-up before ready; without it, their defaults (as ./seckill run). */
    private static Map<String, String> warmup(Flags f) {
        if (!f.has("warmup")) return Map.of();
        String n = Long.toString(f.getLong("warmup", 0));
        return Map.of("SECKILL_GATEWAY_WARMUP_REQUESTS", n, "SECKILL_STREAM_WARMUP_COMMANDS", n);
    }

    /** {@code chaos --json}: the table's figures per scenario, recoveries in ms (null: never), and the verdict. */
    static String json(List<ChaosRun.Result> results, int brokers, Map<String, String> flags) {
        ObjectNode root = JsonOutput.object();
        root.put("command", "chaos");
        ObjectNode given = root.putObject("flags");
        flags.forEach((name, value) -> {
            if (!name.equals("json")) given.put(name, value);
        });
        root.put("brokers", brokers);
        root.put("passed", results.stream().allMatch(ChaosRun.Result::passed));
        ArrayNode scenarios = root.putArray("scenarios");
        for (ChaosRun.Result r : results) {
            ObjectNode n = scenarios.addObject();
            n.put("scenario", r.scenario().name());
            n.put("faults", r.faults());
            n.put("requests", r.requests());
            n.put("answered", r.answered());
            n.put("successes", r.successes());
            n.put("orders", r.audit().sold());
            n.put("oversold", r.audit().oversold());
            n.put("lost", r.audit().lost());
            n.put("duplicateBuyers", r.audit().duplicateBuyers());
            n.put("falseDuplicates", r.audit().falseDuplicates());
            ArrayNode recoveries = n.putArray("recoveredInMs");
            r.recoveries().forEach(ms -> {
                if (ms < 0) recoveries.addNull();
                else recoveries.add(ms);
            });
            n.put("passed", r.passed());
            n.put("failure", r.failure());
        }
        return JsonOutput.render(root);
    }

    static void print(PrintStream out, List<ChaosRun.Result> results, int brokers) {
        out.printf("%n== chaos (%d broker%s) ==%n", brokers, brokers == 1 ? "" : "s");
        String head = "%-14s %6s %8s %8s %7s %6s %8s %5s %5s %6s %18s %s%n";
        out.printf(
                head,
                "scenario",
                "faults",
                "requests",
                "answered",
                "SUCCESS",
                "orders",
                "oversold",
                "lost",
                "dup",
                "f.dup",
                "recovered in (ms)",
                "verdict");
        for (ChaosRun.Result r : results) {
            out.printf(
                    "%-14s %6d %,8d %,8d %,7d %,6d %8d %5d %5d %6d %18s %s%n",
                    r.scenario().name(),
                    r.faults(),
                    r.requests(),
                    r.answered(),
                    r.successes(),
                    r.audit().sold(),
                    r.audit().oversold(),
                    r.audit().lost(),
                    r.audit().duplicateBuyers(),
                    r.audit().falseDuplicates(),
                    r.recoveries().isEmpty()
                            ? "-"
                            : r.recoveries().stream()
                                    .map(ms -> ms < 0 ? "never" : String.format("%,d", ms))
                                    .collect(Collectors.joining("/")),
                    r.passed() ? "PASS" : "FAIL" + (r.failure() == null ? "" : " (" + r.failure() + ")"));
        }
        out.printf(
                "(orders: live orders in the DB; lost: told SUCCESS, no order; dup: units beyond one per buyer; f.dup: told"
                        + " DUPLICATE, no order; recovered: the order-writer's restart (/health 200) to"
                        + " an order for every SUCCESS so far; the stream's, a gateway's or a broker's SIGKILL or a Redis sleep to the first answer to a request sent after it; Redis"
                        + " restart to the sale back in Redis; a Redis restart from a stale dump or a failover to the first"
                        + " answer to a request sent after it; a FLUSHALL to the sale back in Redis; DB back or lock"
                        + " released to an order for every SUCCESS so far)%n");
        out.printf(
                "verdict            %s%n",
                results.stream().allMatch(ChaosRun.Result::passed)
                        ? "every invariant held in every scenario"
                        : "VIOLATION in "
                                + Arrays.toString(results.stream()
                                        .filter(r -> !r.passed())
                                        .map(r -> r.scenario().name())
                                        .toArray()));
    }
}
