package dev.seckill.stock.decision;

import java.util.function.Function;

/** What one command record needs: nothing more (it is decided) or one Lua call, completed by its answer. */
sealed interface Step {
    /** Decided without Redis: the DLQ, a short-circuit answer, a stored in-memory decision. */
    record Decided(Decision decision) implements Step {}

    /** The Lua call to make and what to do with its answer; calls run in input order, one pipeline per batch. */
    record Call(ScriptCall call, Function<LuaResult, Decision> complete) implements Step {}

    static Step decided(Decision d) {
        return new Decided(d);
    }
}
