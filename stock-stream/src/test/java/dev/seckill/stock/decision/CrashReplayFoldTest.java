package dev.seckill.stock.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.ledger.FoldStore;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 item 7: the fold stock-stream keeps (what {@code restore} rebuilds Redis from) must equal Redis after a
 * crash replay, also when the replay decides differently from the aborted first run. The first run answers a
 * purchase SOLD_OUT in memory (the gate), then a release returns a unit; the run crashes before its commit, so the
 * fold and the short-circuit log go back to their committed state while Redis keeps the stored decisions. The replay
 * has no armed gate, so the same purchase reaches Lua and buys the released unit. Copying a REPLAY's stockAfter into
 * the fold (as before) left it one unit above Redis, and a restore then oversold; folding by deltas does not.
 */
class CrashReplayFoldTest extends TestRedisCase {
    static final long GOODS = 5001;

    static ShortCircuitLog inMemoryLog() {
        Map<String, String> map = new HashMap<>();
        return new ShortCircuitLog() {
            @Override
            public String get(long goodsId, String requestId) {
                return map.get(ShortCircuitLog.key(goodsId, requestId));
            }

            @Override
            public void put(long goodsId, String requestId, String stored) {
                map.put(ShortCircuitLog.key(goodsId, requestId), stored);
            }
        };
    }

    Decider decider(FoldStore folds) {
        return decider(folds, redis);
    }

    Decider decider(FoldStore folds, TestRedis on) {
        return new Decider(on.scripts(), Clock.systemUTC(), folds, inMemoryLog(), () -> {});
    }

    static Decider.Input in(long offset, Object command) {
        byte[] raw = command instanceof OpenSale o
                ? CommandCodec.encode(o)
                : command instanceof Purchase p ? CommandCodec.encode(p) : CommandCodec.encode((Release) command);
        return new Decider.Input(Long.toString(GOODS), raw, 0, offset, System.currentTimeMillis());
    }

    @Test
    void aCrashReplayThatDecidesDifferentlyLeavesTheFoldEqualToRedis() {
        Decider.Input open = in(0, new OpenSale(GOODS, 1, start, start.plusSeconds(3600), 1, "open", false));
        Decider.Input first = in(1, new Purchase("first", GOODS, 1, 1, start.plusSeconds(1)));
        Decider.Input second = in(2, new Purchase("second", GOODS, 2, 1, start.plusSeconds(2)));
        Decider.Input release = in(3, new Release(GOODS, 1, 1, 9L, "first", "cancelled", "rel-first"));

        Decider firstRun = decider(FoldStore.inMemory());
        firstRun.decideAll(List.of(open));
        firstRun.decideAll(List.of(first)); // SUCCESS, sold out: the gate arms
        var aborted = firstRun.decideAll(List.of(second, release));
        assertThat(aborted.get(0).outcome().outcome()).as("answered in memory").isEqualTo(OutcomeKind.SOLD_OUT);
        assertThat(redis.redis.hexists(redis.keys.decisions(GOODS), "req:second"))
                .isFalse();

        // the crash: nothing after the open was committed; the task restarts with the committed fold and an empty gate
        FoldStore committed = FoldStore.inMemory();
        Decider replay = decider(committed);
        replay.decideAll(List.of(open));
        var decided = replay.decideAll(List.of(first, second, release));
        assertThat(decided.get(1).outcome().outcome())
                .as("the released unit, bought on replay")
                .isEqualTo(OutcomeKind.SUCCESS);
        long ledgerStock = decided.stream()
                        .map(d -> d.ledger())
                        .filter(Objects::nonNull)
                        .mapToLong(LedgerEntry::stockDelta)
                        .sum()
                + 1;

        long redisStock = Long.parseLong(redis.redis.get(redis.keys.stock(GOODS)));
        assertThat(redisStock).isZero();
        assertThat(committed.get(GOODS).stock)
                .as("the fold restore would write")
                .isEqualTo(redisStock)
                .isEqualTo(ledgerStock);
        assertThat(committed.holdings(GOODS)).containsOnlyKeys(2L);
    }
}
