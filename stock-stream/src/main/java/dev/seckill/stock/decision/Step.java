package dev.seckill.stock.decision;

import dev.seckill.stock.bucket.Hop;
import java.util.List;
import java.util.function.Function;

/** What one command record needs: nothing more (it is decided) or one Lua call, completed by its answer. */
sealed interface Step {
    /** Decided without Redis: the DLQ, a short-circuit answer, a stored in-memory decision. */
    record Decided(Decision decision) implements Step {}

    /** The Lua call to make and what to do with its answer; calls run in input order, one pipeline per batch. */
    record Call(ScriptCall call, Function<LuaResult, Decision> complete) implements Step {}

    /** Decided: {@code hop} sent, nothing else. */
    static Step sending(Hop hop) {
        return new Decided(Decision.hops(List.of(hop)));
    }

    static Step decided(Decision d) {
        return new Decided(d);
    }
}
