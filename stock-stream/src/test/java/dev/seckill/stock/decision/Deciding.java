package dev.seckill.stock.decision;

import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One goods' commands decided as the stream decides them — a {@link Decider} over a real Redis and a fold that commits
 * and aborts like the task's stores — with offsets counted for the test: Given/When/Then tests say only what is sent.
 */
final class Deciding {
    final TestRedis redis;
    final long goods;
    final TransactionalFolds folds = new TransactionalFolds();
    private final boolean gate;
    private final StockScripts scripts;
    private Decider decider;
    private long offset;
    private long committedOffset;

    Deciding(TestRedis redis, long goods, boolean gate) {
        this(redis, goods, gate, redis.scripts());
    }

    /** A task deciding through {@code scripts} (one asked after this instance's lease, say). */
    Deciding(TestRedis redis, long goods, boolean gate, StockScripts scripts) {
        this.redis = redis;
        this.goods = goods;
        this.gate = gate;
        this.scripts = scripts;
        this.decider = fresh();
    }

    private Decider fresh() {
        return new Decider(scripts, Clock.systemUTC(), folds, gate, () -> {});
    }

    /** Decides the commands as one batch (one pipelined round trip), at the next offsets. */
    List<Decision> batch(Command... commands) {
        List<Decider.Input> inputs = new ArrayList<>();
        for (Command c : commands) inputs.add(input(offset++, c));
        return decider.decideAll(inputs);
    }

    /** As {@link #batch}, with {@code whileWaiting} given to the decider to run while Redis answers. */
    List<Decision> batchWhileWaiting(Runnable whileWaiting, Command... commands) {
        List<Decider.Input> inputs = new ArrayList<>();
        for (Command c : commands) inputs.add(input(offset++, c));
        return decider.decideAll(inputs, whileWaiting);
    }

    Decision one(Command command) {
        return batch(command).get(0);
    }

    /** What the task's punctuator does every second: the keys of the goods the gate answers checked, rebuilt if lost. */
    void verifyGate() {
        decider.verifyGate();
    }

    /** The commit of the task's transaction: the fold as it is now survives a crash. */
    void commit() {
        folds.commit();
        committedOffset = offset;
    }

    /** A crash before the next commit: the fold goes back, the task restarts (empty gate) from the committed offset. */
    void crash() {
        folds.abort();
        offset = committedOffset;
        decider = fresh();
    }

    /** The offset the next command gets. */
    long offset() {
        return offset;
    }

    Decider.Input input(long at, Command command) {
        return new Decider.Input(
                Long.toString(command.goodsId()), CommandCodec.encode(command), 0, at, System.currentTimeMillis());
    }

    OpenSale open(long stock, Instant start, int limit, String opId) {
        return new OpenSale(goods, stock, start, start.plusSeconds(3600), limit, opId, false);
    }

    Purchase buy(String requestId, long user, Instant at) {
        return new Purchase(requestId, goods, user, 1, at);
    }

    Release release(long user, String requestId, String opId) {
        return new Release(goods, user, 1, null, requestId, "payment_timeout", opId);
    }

    Pay pay(long user, String requestId, String opId) {
        return new Pay(goods, user, requestId, 1L, "psp-" + opId, opId);
    }

    CloseSale close(String opId) {
        return new CloseSale(goods, opId);
    }

    /** Units left in Redis (null: no key). */
    String redisStock() {
        return redis.redis.get(redis.keys.stock(goods));
    }
}
