package dev.seckill.order.store;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** Instants as the DATETIME values the schema stores: UTC wall-clock time. */
final class SqlTime {
    private SqlTime() {}

    static LocalDateTime utc(Instant i) {
        return i == null ? null : LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }
}
