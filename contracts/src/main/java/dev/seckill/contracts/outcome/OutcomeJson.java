package dev.seckill.contracts.outcome;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.time.IsoInstants;
import java.nio.charset.StandardCharsets;

/**
 * Writes an {@link Outcome} as JSON by hand, byte for byte what {@link Json#write} writes for it (component order,
 * nulls left out, instants as ISO-8601): the stream encodes one per decision, and Jackson's bean serializer was a
 * seventh of its hot path. Strings that would need escaping go through Jackson.
 */
public final class OutcomeJson {
    private OutcomeJson() {}

    public static byte[] encode(Outcome o) {
        if (o.detail() != null
                || !CommandCodec.plain(o.requestId())
                || (o.reason() != null && !CommandCodec.plain(o.reason()))
                || (o.heldRequestId() != null && !CommandCodec.plain(o.heldRequestId()))) return Json.write(o);
        StringBuilder b = new StringBuilder(256)
                .append("{\"v\":")
                .append(o.v())
                .append(",\"requestId\":\"")
                .append(o.requestId())
                .append("\",\"goodsId\":")
                .append(o.goodsId())
                .append(",\"userId\":")
                .append(o.userId())
                .append(",\"quantity\":")
                .append(o.quantity());
        if (o.outcome() != null)
            b.append(",\"outcome\":\"").append(o.outcome().name()).append('"');
        if (o.reason() != null) b.append(",\"reason\":\"").append(o.reason()).append('"');
        b.append(",\"stockAfter\":").append(o.stockAfter());
        if (o.acceptedAt() != null)
            IsoInstants.append(b.append(",\"acceptedAt\":\""), o.acceptedAt()).append('"');
        if (o.decidedAt() != null)
            IsoInstants.append(b.append(",\"decidedAt\":\""), o.decidedAt()).append('"');
        b.append(",\"partition\":").append(o.partition()).append(",\"offset\":").append(o.offset());
        if (o.heldRequestId() != null)
            b.append(",\"heldRequestId\":\"").append(o.heldRequestId()).append('"');
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
