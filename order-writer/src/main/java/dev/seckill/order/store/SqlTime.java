package dev.seckill.order.store;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** Instants as the DATETIME values the schema stores: UTC wall-clock time. */
final class SqlTime {
    /** DATETIME's range on MySQL and MariaDB: 1000-01-01 to 9999-12-31 (UTC, as stored). */
    private static final Instant FIRST = Instant.parse("1000-01-01T00:00:00Z");

    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999Z");

    private SqlTime() {}

    static LocalDateTime utc(Instant i) {
        return i == null ? null : LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    /**
     * An instant a record brought, for an informational column: null when DATETIME cannot hold it, so a producer's
     * clock (an {@code acceptedAt} in the year 20000) never sinks the row it belongs to.
     */
    static LocalDateTime utcOrNull(Instant i) {
        return i == null || i.isBefore(FIRST) || i.isAfter(LAST) ? null : utc(i);
    }
}
