package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based: seeded random command sequences — purchases (new ids, retries, ids reused for another buyer,
 * windows edges, over the limit), pays, releases, a close — decided in random batches by the real Decider and scripts
 * on a real Redis, while Redis loses writes at random moments (emptied, or put back to a snapshot of an earlier moment)
 * and the task crashes before random commits (the fold goes back; Redis keeps what ran). Every answer the stream emits
 * must be the one {@link SaleModel} gives, and at the end fold, Redis and model agree. A seed that fails names itself.
 */
class SaleModelTest extends TestRedisCase {
    static final long GOODS = 7301;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void theStreamDecidesAsThePlainRulesDo_whateverRedisForgetsAndWheneverTheTaskCrashes(long seed) {
        Random random = new Random(seed);
        boolean gate = seed % 2 == 0;
        long stock = 3 + random.nextInt(6);
        Deciding d = new Deciding(redis, GOODS, gate);
        long startMs = start.toEpochMilli(), endMs = startMs + 3_600_000;
        assertThat(d.one(d.open(stock, start, 2, "open")).ledger()).isNotNull();
        d.commit();
        SaleModel model = new SaleModel(stock, startMs, endMs, 2), committed = model.copy();
        List<Command> sent = new ArrayList<>(); // every command sent, so retries and reuses name real ones
        List<RedisSnapshot> snapshots = new ArrayList<>(List.of(RedisSnapshot.take(redis, GOODS)));
        StringBuilder trace = new StringBuilder("seed " + seed + " gate " + gate + " stock " + stock + "\n");

        List<List<Command>> uncommitted = new ArrayList<>();
        for (int step = 0; step < 60; step++) {
            int roll = random.nextInt(100);
            if (roll < 6) {
                RedisSnapshot.wipe(redis, GOODS);
                trace.append("  wipe\n");
            } else if (roll < 12) {
                snapshots.get(random.nextInt(snapshots.size())).putBack(GOODS);
                trace.append("  stale snapshot\n");
            } else if (roll < 18) {
                d.crash(); // the task restarts from its last commit and reads the same records again
                model = committed.copy();
                trace.append("  crash: replay of ").append(uncommitted.size()).append(" batches\n");
                for (List<Command> batch : uncommitted) decideAndCompare(d, model, batch, trace);
            } else if (roll < 35) {
                d.commit();
                committed = model.copy();
                uncommitted.clear();
            }
            if (random.nextInt(4) == 0) snapshots.add(RedisSnapshot.take(redis, GOODS));

            List<Command> batch = new ArrayList<>();
            for (int n = 1 + random.nextInt(6); n > 0; n--) batch.add(next(random, d, model, sent, step));
            decideAndCompare(d, model, batch, trace);
            uncommitted.add(batch);
            sent.addAll(batch);
        }
        // one more call makes the keys the fold's whatever the last loss left, then the three must agree
        d.one(d.release(999_999, null, "final-probe"));
        assertThat(d.folds.get(GOODS).stock).as(trace.toString()).isEqualTo(model.stock);
        assertThat(Long.parseLong(d.redisStock())).as(trace.toString()).isEqualTo(model.stock);
        Map<Long, String> holders = new TreeMap<>();
        model.holders.forEach((u, h) -> holders.put(u, h.requestId()));
        Map<Long, String> foldHolders = new TreeMap<>();
        d.folds.holdings(GOODS).forEach((u, h) -> foldHolders.put(u, h.requestId()));
        assertThat(foldHolders).as(trace.toString()).isEqualTo(holders);
        Map<Long, String> redisHolders = new TreeMap<>();
        redis.redis.hgetAll(redis.keys.holders(GOODS)).forEach((u, r) -> redisHolders.put(Long.parseLong(u), r));
        assertThat(redisHolders).as(trace.toString()).isEqualTo(holders);
    }

    private static void decideAndCompare(Deciding d, SaleModel model, List<Command> batch, StringBuilder trace) {
        List<Decision> decided = d.batch(batch.toArray(Command[]::new));
        for (int i = 0; i < batch.size(); i++) {
            String expected = expect(model, batch.get(i));
            String actual = answer(decided.get(i));
            trace.append("  ")
                    .append(batch.get(i))
                    .append(" -> ")
                    .append(actual)
                    .append('\n');
            assertThat(actual).as(trace.toString()).isEqualTo(expected);
        }
    }

    private Command next(Random random, Deciding d, SaleModel model, List<Command> sent, int step) {
        int roll = random.nextInt(100);
        List<Purchase> bought = sent.stream()
                .filter(c -> c instanceof Purchase)
                .map(c -> (Purchase) c)
                .toList();
        if (roll < 12 && !bought.isEmpty()) return bought.get(random.nextInt(bought.size())); // a retry
        if (roll < 16 && !bought.isEmpty()) { // an id reused by another buyer
            Purchase p = bought.get(random.nextInt(bought.size()));
            return new Purchase(p.requestId(), p.goodsId(), p.userId() + 1, p.quantity(), p.acceptedAt());
        }
        if (roll < 30 && !model.holders.isEmpty()) {
            List<Long> users = new ArrayList<>(new TreeMap<>(model.holders).keySet());
            long user = users.get(random.nextInt(users.size()));
            SaleModel.Holding h = model.holders.get(user);
            String op = step + "-" + random.nextInt(1_000_000);
            return random.nextBoolean()
                    ? d.pay(user, h.requestId(), "pay-" + op)
                    : d.release(user, random.nextBoolean() ? h.requestId() : null, "rel-" + op);
        }
        if (roll < 32) return d.close("close-" + step);
        long user = 1 + random.nextInt(12);
        int quantity = random.nextInt(10) == 0 ? 3 : 1 + random.nextInt(2);
        long at = random.nextInt(20) == 0 ? -5 : random.nextInt(20) == 0 ? 3_600 : 5;
        return new Purchase("r" + step + "-" + random.nextInt(1_000_000), GOODS, user, quantity, start.plusSeconds(at));
    }

    private static String expect(SaleModel model, Command c) {
        if (c instanceof Purchase p)
            return model.purchase(
                    p.requestId(), p.userId(), p.quantity(), p.acceptedAt().toEpochMilli());
        if (c instanceof Release r) return model.release(r.userId(), r.requestId(), r.opId());
        if (c instanceof Pay p) return model.pay(p.userId(), p.requestId(), p.opId());
        return model.close(((dev.seckill.contracts.command.CloseSale) c).opId());
    }

    private static String answer(Decision d) {
        if (d.toDlq()) return "DLQ";
        if (d.hasOutcome())
            return d.outcome().outcome()
                    + (d.outcome().reason() == null ? "" : "/" + d.outcome().reason());
        if (d.hasLedger()) return d.ledger().type().name();
        return "-";
    }
}
