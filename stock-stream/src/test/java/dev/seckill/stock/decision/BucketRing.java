package dev.seckill.stock.decision;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.stock.bucket.BucketTerms;
import dev.seckill.stock.bucket.Hop;
import dev.seckill.stock.bucket.HopOut;
import dev.seckill.stock.bucket.HopSeal;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A commands topic of {@code partitions} partitions decided as the stream decides it, without Kafka: one {@link Decider}
 * per partition over a real Redis and a fold that commits like a task's stores, every partition a log with its own
 * offsets. A client's command is appended to its goods' home partition; a decision's hops are appended to their
 * buckets' partitions, carrying the record time of the command that sent them, as Kafka Streams forwards it to a
 * {@code CreateTime} topic — or, {@code appendTime}, stamped anew as each is appended, as the broker does to the
 * commands topic ({@code LogAppendTime}, the default). The partitions are decided in a random interleaving, a random
 * number of records at a time (one batch each).
 */
final class BucketRing {
    private record Logged(long offset, String key, byte[] raw, long timestamp, Hop hop, boolean released) {
        Logged(long offset, String key, byte[] raw, long timestamp, Hop hop) {
            this(offset, key, raw, timestamp, hop, false);
        }
    }

    final int partitions;
    private final List<Deque<Logged>> logs = new ArrayList<>();
    private final List<Decider> deciders = new ArrayList<>();
    private final List<TransactionalFolds> folds = new ArrayList<>();
    private final long[] offsets;
    private final Random random;
    final List<Outcome> outcomes = new ArrayList<>();
    final List<LedgerEntry> ledger = new ArrayList<>();
    final List<String> dlq = new ArrayList<>();
    /** Every hop sent, with the key it went under. */
    final List<Map.Entry<String, Hop>> sent = new ArrayList<>();

    long hops;
    private final boolean appendTime;
    private long clock = System.currentTimeMillis();

    BucketRing(TestRedis redis, int partitions, long prefetch, long reborrowAfterMs, long seed) {
        this(redis, partitions, prefetch, reborrowAfterMs, seed, false);
    }

    BucketRing(TestRedis redis, int partitions, long prefetch, long reborrowAfterMs, long seed, boolean appendTime) {
        this(redis, partitions, prefetch, reborrowAfterMs, seed, appendTime, dev.seckill.stock.draw.DrawTerms.OFF);
    }

    /** A ring whose deciders open drawn sales under {@code draw} (their releases: {@link #sendEntry}). */
    BucketRing(
            TestRedis redis,
            int partitions,
            long prefetch,
            long reborrowAfterMs,
            long seed,
            boolean appendTime,
            dev.seckill.stock.draw.DrawTerms draw) {
        this.appendTime = appendTime;
        this.partitions = partitions;
        this.offsets = new long[partitions];
        this.random = new Random(seed);
        BucketTerms terms = new BucketTerms(partitions, new HopSeal("ring-test-key"), prefetch, reborrowAfterMs);
        for (int p = 0; p < partitions; p++) {
            logs.add(new ArrayDeque<>());
            TransactionalFolds f = new TransactionalFolds();
            folds.add(f);
            deciders.add(new Decider(redis.scripts(), Clock.systemUTC(), f, false, () -> {}, draw, terms));
        }
    }

    /** A client's command, appended to its goods' home partition at record time {@code timestamp}. */
    void send(Command c, long timestamp) {
        int home = HopOut.home(c.key(), partitions);
        long ts = appendTime ? (clock = Math.max(clock + 1, timestamp)) : timestamp;
        append(home, new Logged(offsets[home]++, c.key(), CommandCodec.encode(c), ts, null));
    }

    /** A client's command appended to {@code partition}, as a producer that picks the partition writes it. */
    void sendTo(int partition, Command c, long timestamp) {
        long ts = appendTime ? (clock = Math.max(clock + 1, timestamp)) : timestamp;
        append(partition, new Logged(offsets[partition]++, c.key(), CommandCodec.encode(c), ts, null));
    }

    /**
     * A client's command as a drawn window's release passes it on at its goods' home (the draw's order is the order of
     * the calls), held at record time {@code timestamp}.
     */
    void sendEntry(Command c, long timestamp) {
        int home = HopOut.home(c.key(), partitions);
        append(home, new Logged(offsets[home]++, c.key(), CommandCodec.encode(c), timestamp, null, true));
    }

    /** A record with {@code hop}'s value and hop, appended to {@code partition} as it is (a copy, a forgery's seal). */
    void inject(int partition, String key, Hop hop) {
        append(partition, new Logged(offsets[partition]++, key, hop.value(), ++clock, hop));
    }

    /** Whether any partition has records left to decide. */
    boolean pending() {
        return logs.stream().anyMatch(l -> !l.isEmpty());
    }

    /** Decides up to {@code most} records of one partition with records, picked at random, as one batch. */
    void step(int most) {
        List<Integer> busy = new ArrayList<>();
        for (int p = 0; p < partitions; p++) if (!logs.get(p).isEmpty()) busy.add(p);
        decide(busy.get(random.nextInt(busy.size())), 1 + random.nextInt(most));
    }

    /**
     * Decides every partition's records one at a time, the partitions in turn (a fixed schedule: the lockstep two
     * buckets' tasks fall into when each runs on a core of its own); fails past {@code limit} turns.
     */
    void drainInTurn(int limit) {
        for (int turn = 0; pending(); turn++) {
            if (turn > limit) throw new AssertionError("the ring did not settle in " + limit + " turns");
            for (int p = 0; p < partitions; p++) if (!logs.get(p).isEmpty()) decide(p, 1);
        }
    }

    /** Decides up to {@code n} records of partition {@code p}, as one batch (a schedule the test picks). */
    void decidePartition(int p, int n) {
        decide(p, n);
    }

    private void decide(int p, int n) {
        Deque<Logged> log = logs.get(p);
        List<Logged> batch = new ArrayList<>();
        while (!log.isEmpty() && batch.size() < n) batch.add(log.poll());
        List<Decider.Input> inputs = new ArrayList<>();
        for (Logged l : batch)
            inputs.add(new Decider.Input(l.key(), l.raw(), p, l.offset(), l.timestamp(), l.hop(), l.released()));
        List<Decision> decided = deciders.get(p).decideAll(inputs);
        folds.get(p).commit();
        for (int i = 0; i < decided.size(); i++) {
            Decision d = decided.get(i);
            if (d.toDlq()) dlq.add(d.dlqReason());
            if (d.hasOutcome()) outcomes.add(d.outcome());
            if (d.hasLedger()) ledger.add(d.ledger());
            for (Hop h : d.hops()) {
                hops++;
                sent.add(Map.entry(batch.get(i).key(), h));
                int to = (HopOut.home(batch.get(i).key(), partitions) + h.bucket()) % partitions;
                append(
                        to,
                        new Logged(
                                offsets[to]++,
                                batch.get(i).key(),
                                h.value(),
                                batch.get(i).timestamp(),
                                h));
            }
        }
    }

    /** Decides everything, the hops it sends too; fails past {@code limit} batches (a hop that never settles). */
    void drain(int most, int limit) {
        for (int i = 0; pending(); i++) {
            if (i > limit) throw new AssertionError("the ring did not settle in " + limit + " batches");
            step(most);
        }
    }

    /** The fold of a goods in partition {@code p}. */
    dev.seckill.stock.ledger.GoodsFold fold(int p, long goods) {
        return folds.get(p).get(goods);
    }

    private void append(int partition, Logged l) {
        logs.get(partition).add(l);
    }
}
