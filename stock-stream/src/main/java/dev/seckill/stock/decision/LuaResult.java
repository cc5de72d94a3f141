package dev.seckill.stock.decision;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a stock script answered: {@code code} (an outcome such as SUCCESS, or RELEASED/OPENED/CLOSED/NOOP/REFUSED),
 * {@code detail} (the REJECTED reason, or the quantity moved), the units left, and whether the decision was made
 * now ({@link Status#NEW}), is this same command's stored decision ({@link Status#REPLAY}) or belongs to an earlier
 * command with the same id ({@link Status#RETRY}).
 */
public record LuaResult(String code, String detail, long stockAfter, Status status) {
    public enum Status {
        NEW,
        REPLAY,
        RETRY,
        /** The goods has no sale hash in Redis and nothing was decided or stored ({@link WipedSales} decides it). */
        NOSALE
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

    public long detailAsLong() {
        return detail == null || detail.isEmpty() ? 0 : Long.parseLong(detail);
    }

    private static String str(Object o) {
        if (o instanceof byte[] b) return new String(b, StandardCharsets.UTF_8);
        return String.valueOf(o);
    }
}
