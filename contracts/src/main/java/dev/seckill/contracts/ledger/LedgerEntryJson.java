package dev.seckill.contracts.ledger;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.time.IsoInstants;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Writes a {@link LedgerEntry} as JSON by hand, byte for byte what {@link Json#write} writes for it (component order,
 * nulls left out, instants as ISO-8601): the stream writes one per purchase sold, and Jackson's bean serializer was
 * the largest single cost of the all-through-Lua path (docs/performance.md, "Where the time goes"). An entry with
 * the draw's facts, or with strings that would need escaping, goes through Jackson.
 */
public final class LedgerEntryJson {
    private LedgerEntryJson() {}

    public static byte[] encode(LedgerEntry e) {
        if (e.draw() != null
                || !CommandCodec.plain(e.opId())
                || (e.requestId() != null && !CommandCodec.plain(e.requestId()))) return Json.write(e);
        StringBuilder b = new StringBuilder(320)
                .append("{\"v\":")
                .append(e.v())
                .append(",\"opId\":\"")
                .append(e.opId())
                .append("\",\"goodsId\":")
                .append(e.goodsId());
        if (e.type() != null) b.append(",\"type\":\"").append(e.type().name()).append('"');
        b.append(",\"quantity\":").append(e.quantity());
        if (e.userId() != null) b.append(",\"userId\":").append(e.userId().longValue());
        if (e.requestId() != null)
            b.append(",\"requestId\":\"").append(e.requestId()).append('"');
        if (e.orderId() != null) b.append(",\"orderId\":").append(e.orderId().longValue());
        b.append(",\"stockAfter\":").append(e.stockAfter());
        instant(b, "at", e.at());
        instant(b, "keysExpireAt", e.keysExpireAt());
        if (e.commandOffset() != null)
            b.append(",\"commandOffset\":").append(e.commandOffset().longValue());
        instant(b, "acceptedAt", e.acceptedAt());
        if (e.openOffset() != null)
            b.append(",\"openOffset\":").append(e.openOffset().longValue());
        if (e.bucket() != null) {
            b.append(",\"bucket\":{\"index\":")
                    .append(e.bucket().index())
                    .append(",\"count\":")
                    .append(e.bucket().count())
                    .append(",\"partition\":")
                    .append(e.bucket().partition());
            if (e.bucket().peer() != null)
                b.append(",\"peer\":").append(e.bucket().peer().intValue());
            if (e.bucket().claims() != null)
                b.append(",\"claims\":").append(e.bucket().claims().intValue());
            b.append('}');
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void instant(StringBuilder b, String field, Instant at) {
        if (at != null)
            IsoInstants.append(b.append(",\"").append(field).append("\":\""), at)
                    .append('"');
    }
}
