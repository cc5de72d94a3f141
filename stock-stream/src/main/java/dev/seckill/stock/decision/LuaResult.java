package dev.seckill.stock.decision;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a stock script (or, for REPLAY and RETRY, the fold's kept decision of the id) answered: {@code code} (an outcome such as SUCCESS, or RELEASED/OPENED/CLOSED/NOOP/REFUSED),
 * {@code detail} (the REJECTED reason, or the quantity moved), the units left, and whether the decision was made
 * now ({@link Status#NEW}), is this same command's stored decision ({@link Status#REPLAY}), belongs to an earlier
 * command with the same id ({@link Status#RETRY}), or was not made because the goods' keys were not at the position
 * the fold expects ({@link Status#STALE}; {@code detail} is the marker found).
 */
public record LuaResult(String code, String detail, long stockAfter, Status status) {
    public enum Status {
        NEW,
        REPLAY,
        RETRY,
        /** The keys were not where the fold expects: nothing read or written ({@link Rebuilds} rebuilds and asks again). */
        STALE
    }

    static LuaResult from(Object reply) {
        if (!(reply instanceof List<?> list) || list.size() != 4) {
            throw new IllegalStateException("unexpected Lua reply: " + reply);
        }
        return new LuaResult(
                str(list.get(0)), str(list.get(1)), Long.parseLong(str(list.get(2))), Status.valueOf(str(list.get(3))));
    }

    /** True when this result should be emitted (decided now, or the replay of an uncommitted first emission). */
    public boolean emits() {
        return status != Status.RETRY;
    }

    public boolean stale() {
        return status == Status.STALE;
    }

    public long detailAsLong() {
        return detail == null || detail.isEmpty() ? 0 : Long.parseLong(detail);
    }

    private static String str(Object o) {
        if (o instanceof byte[] b) return new String(b, StandardCharsets.UTF_8);
        return String.valueOf(o);
    }
}
