package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model-based (found in review): SaleModelTest across several goods in one pipelined batch, with restores, re-opens (forced / not), and
 * Redis losses per goods and crashes. Every answer must be the plain rules'.
 */
class MultiGoodsModelTest extends TestRedisCase {
    static final long[] GOODS = {8101, 8102, 8103};

    static List<Long> seeds() {
        List<Long> s = new ArrayList<>();
        for (long i = 1; i <= 40; i++) s.add(i);
        return s;
    }

    /** One goods' plain model, with re-opens. */
    static final class Model {
        final long start, end;
        final int limit = 2;
        long stock;
        boolean closed;
        Map<Long, SaleModel.Holding> holders = new HashMap<>();
        Map<String, String> purchases = new HashMap<>();
        Set<String> earlier = new HashSet<>();
        Set<String> ops = new HashSet<>();

        Model(long stock, long start, long end) {
            this.stock = stock;
            this.start = start;
            this.end = end;
        }

        Model copy() {
            Model m = new Model(stock, start, end);
            m.closed = closed;
            m.holders = new HashMap<>(holders);
            m.purchases = new HashMap<>(purchases);
            m.earlier = new HashSet<>(earlier);
            m.ops = new HashSet<>(ops);
            return m;
        }

        String purchase(String rid, long user, int q, long at) {
            String payload = user + ":" + q;
            String was = purchases.get(rid);
            if (was != null) {
                if (earlier.contains(rid)) return "REJECTED/invalid";
                return was.equals(payload) ? "-" : "REJECTED/invalid";
            }
            purchases.put(rid, payload);
            if (at < start) return "REJECTED/not_started";
            if (at >= end || closed) return "REJECTED/ended";
            if (q > limit) return "REJECTED/over_limit";
            if (holders.containsKey(user)) return "DUPLICATE";
            if (stock < q) return "SOLD_OUT";
            stock -= q;
            holders.put(user, new SaleModel.Holding(rid, q, false));
            return "SUCCESS";
        }

        String release(long user, String rid, String op) {
            if (!ops.add(op)) return "-";
            SaleModel.Holding h = holders.get(user);
            if (h == null || (rid != null && !rid.equals(h.requestId()))) return "-";
            if (h.paid()) return "DLQ";
            holders.remove(user);
            stock += h.quantity();
            return "RELEASED";
        }

        String pay(long user, String rid, String op) {
            if (!ops.add(op)) return "-";
            SaleModel.Holding h = holders.get(user);
            if (h == null || !h.requestId().equals(rid)) return "PAYMENT_REFUSED";
            holders.put(user, new SaleModel.Holding(h.requestId(), h.quantity(), true));
            return "PAID";
        }

        String close(String op) {
            if (!ops.add(op)) return "-";
            closed = true;
            return "CLOSED";
        }

        String restore(String op) {
            if (!ops.add(op)) return "-";
            return "RESTORED";
        }

        String open(long newStock, boolean force, String op) {
            if (!ops.add(op)) return "-";
            if (!force) return "DLQ"; // keys of the live sale are there
            if (!holders.isEmpty()) return "DLQ"; // forced over live buyers
            stock = newStock;
            closed = false;
            earlier.addAll(purchases.keySet());
            return "OPENED";
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void manyGoodsInOneBatch_decideAsThePlainRules(long seed) {
        Random random = new Random(seed);
        boolean gate = seed % 2 == 0;
        TransactionalFolds folds = new TransactionalFolds();
        long[] offset = {0};
        long[] committedOffset = {0};
        Decider[] decider = {new Decider(redis.scripts(), Clock.systemUTC(), folds, gate, () -> {})};
        long startMs = start.toEpochMilli(), endMs = startMs + 3_600_000;
        Map<Long, Model> models = new TreeMap<>();
        StringBuilder trace = new StringBuilder("seed " + seed + " gate " + gate + "\n");
        List<Command> opens = new ArrayList<>();
        for (long g : GOODS) {
            long stock = 2 + random.nextInt(4);
            opens.add(new OpenSale(g, stock, start, start.plusSeconds(3600), 2, "open-" + g, false));
            models.put(g, new Model(stock, startMs, endMs));
        }
        List<Decider.Input> openInputs = new ArrayList<>();
        for (Command c : opens) openInputs.add(input(offset[0]++, c));
        decider[0].decideAll(openInputs).forEach(x -> assertThat(x.ledger()).isNotNull());
        for (long g : GOODS) models.get(g).ops.add("open-" + g);
        folds.commit();
        committedOffset[0] = offset[0];
        Map<Long, Model> committed = copy(models);
        Map<Long, List<RedisSnapshot>> snapshots = new HashMap<>();
        for (long g : GOODS) snapshots.put(g, new ArrayList<>(List.of(RedisSnapshot.take(redis, g))));
        List<Command> sent = new ArrayList<>();
        List<List<Command>> uncommitted = new ArrayList<>();

        for (int step = 0; step < 50; step++) {
            int roll = random.nextInt(100);
            long lossGoods = GOODS[random.nextInt(GOODS.length)];
            if (roll < 6) {
                RedisSnapshot.wipe(redis, lossGoods);
                trace.append("  wipe ").append(lossGoods).append('\n');
            } else if (roll < 12) {
                List<RedisSnapshot> s = snapshots.get(lossGoods);
                s.get(random.nextInt(s.size())).putBack(lossGoods);
                trace.append("  stale snapshot ").append(lossGoods).append('\n');
            } else if (roll < 18) {
                folds.abort();
                offset[0] = committedOffset[0];
                decider[0] = new Decider(redis.scripts(), Clock.systemUTC(), folds, gate, () -> {});
                models = copy(committed);
                trace.append("  crash: replay of ").append(uncommitted.size()).append(" batches\n");
                // the replay may batch the same records differently
                List<Command> all = new ArrayList<>();
                uncommitted.forEach(all::addAll);
                List<List<Command>> rebatched = new ArrayList<>();
                int i = 0;
                while (i < all.size()) {
                    int n = 1 + random.nextInt(8);
                    rebatched.add(new ArrayList<>(all.subList(i, Math.min(all.size(), i + n))));
                    i += n;
                }
                for (List<Command> b : rebatched) decide(decider[0], offset, b, models, trace);
                uncommitted = rebatched;
            } else if (roll < 35) {
                folds.commit();
                committedOffset[0] = offset[0];
                committed = copy(models);
                uncommitted = new ArrayList<>();
            }
            if (random.nextInt(4) == 0) {
                long g = GOODS[random.nextInt(GOODS.length)];
                snapshots.get(g).add(RedisSnapshot.take(redis, g));
            }
            List<Command> batch = new ArrayList<>();
            for (int n = 1 + random.nextInt(8); n > 0; n--) batch.add(next(random, models, sent, step, n));
            decide(decider[0], offset, batch, models, trace);
            uncommitted.add(batch);
            sent.addAll(batch);
        }
        for (long g : GOODS) {
            decider[0].decideAll(List.of(
                    input(offset[0]++, new Release(g, 999_999, 1, null, null, "payment_timeout", "probe-" + g))));
            Model m = models.get(g);
            assertThat(folds.get(g).stock).as(trace + "fold stock of " + g).isEqualTo(m.stock);
            assertThat(Long.parseLong(redis.redis.get(redis.keys.stock(g))))
                    .as(trace + "redis stock of " + g)
                    .isEqualTo(m.stock);
            Map<Long, String> holders = new TreeMap<>();
            m.holders.forEach((u, h) -> holders.put(u, h.requestId()));
            Map<Long, String> foldHolders = new TreeMap<>();
            folds.holdings(g).forEach((u, h) -> foldHolders.put(u, h.requestId()));
            assertThat(foldHolders).as(trace + "fold holders of " + g).isEqualTo(holders);
            Map<Long, String> redisHolders = new TreeMap<>();
            redis.redis.hgetAll(redis.keys.holders(g)).forEach((u, r) -> redisHolders.put(Long.parseLong(u), r));
            assertThat(redisHolders).as(trace + "redis holders of " + g).isEqualTo(holders);
        }
    }

    static Map<Long, Model> copy(Map<Long, Model> m) {
        Map<Long, Model> out = new TreeMap<>();
        m.forEach((g, x) -> out.put(g, x.copy()));
        return out;
    }

    Decider.Input input(long at, Command c) {
        return new Decider.Input(Long.toString(c.goodsId()), CommandCodec.encode(c), 0, at, System.currentTimeMillis());
    }

    void decide(Decider d, long[] offset, List<Command> batch, Map<Long, Model> models, StringBuilder trace) {
        List<Decider.Input> inputs = new ArrayList<>();
        for (Command c : batch) inputs.add(input(offset[0]++, c));
        List<Decision> decided = d.decideAll(inputs);
        for (int i = 0; i < batch.size(); i++) {
            Command c = batch.get(i);
            String expected = expect(models.get(c.goodsId()), c);
            String actual = answer(decided.get(i));
            trace.append("  @")
                    .append(inputs.get(i).offset())
                    .append(' ')
                    .append(c)
                    .append(" -> ")
                    .append(actual);
            if (!expected.equals(actual)) trace.append("   EXPECTED ").append(expected);
            trace.append('\n');
            assertThat(actual).as(trace.toString()).isEqualTo(expected);
        }
    }

    Command next(Random random, Map<Long, Model> models, List<Command> sent, int step, int n) {
        long g = GOODS[random.nextInt(GOODS.length)];
        Model model = models.get(g);
        int roll = random.nextInt(100);
        List<Purchase> bought = sent.stream()
                .filter(c -> c instanceof Purchase p && p.goodsId() == g)
                .map(c -> (Purchase) c)
                .toList();
        String op = step + "-" + n + "-" + random.nextInt(1_000_000);
        if (roll < 10 && !bought.isEmpty()) return bought.get(random.nextInt(bought.size()));
        if (roll < 13 && !bought.isEmpty()) {
            Purchase p = bought.get(random.nextInt(bought.size()));
            return new Purchase(p.requestId(), g, p.userId() + 1, p.quantity(), p.acceptedAt());
        }
        if (roll < 30 && !model.holders.isEmpty()) {
            List<Long> users = new ArrayList<>(new TreeMap<>(model.holders).keySet());
            long user = users.get(random.nextInt(users.size()));
            SaleModel.Holding h = model.holders.get(user);
            if (random.nextInt(3) == 0) return new Pay(g, user, h.requestId(), 1L, "psp-" + op, "pay-" + op);
            return new Release(
                    g, user, 1, null, random.nextBoolean() ? h.requestId() : null, "payment_timeout", "rel-" + op);
        }
        if (roll < 34) return new Restore(g, "restore-" + op);
        if (roll < 36) return new CloseSale(g, "close-" + op);
        if (roll < 42) {
            return new OpenSale(
                    g, 1 + random.nextInt(4), start, start.plusSeconds(3600), 2, "reopen-" + op, random.nextInt(3) > 0);
        }
        long user = 1 + random.nextInt(8);
        int quantity = random.nextInt(10) == 0 ? 3 : 1 + random.nextInt(2);
        long at = random.nextInt(20) == 0 ? -5 : random.nextInt(20) == 0 ? 3_600 : 5;
        return new Purchase("r" + op, g, user, quantity, start.plusSeconds(at));
    }

    static String expect(Model m, Command c) {
        if (c instanceof Purchase p)
            return m.purchase(
                    p.requestId(), p.userId(), p.quantity(), p.acceptedAt().toEpochMilli());
        if (c instanceof Release r) return m.release(r.userId(), r.requestId(), r.opId());
        if (c instanceof Pay p) return m.pay(p.userId(), p.requestId(), p.opId());
        if (c instanceof Restore r) return m.restore(r.opId());
        if (c instanceof OpenSale o) return m.open(o.stock(), o.force(), o.opId());
        return m.close(((CloseSale) c).opId());
    }

    static String answer(Decision d) {
        if (d.toDlq()) return "DLQ";
        if (d.hasOutcome())
            return d.outcome().outcome()
                    + (d.outcome().reason() == null ? "" : "/" + d.outcome().reason());
        if (d.hasLedger()) return d.ledger().type().name();
        return "-";
    }
}
