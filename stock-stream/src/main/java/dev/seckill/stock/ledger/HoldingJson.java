package dev.seckill.stock.ledger;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandCodec;
import java.nio.charset.StandardCharsets;

/**
 * Writes a buyer's {@link GoodsFold.Holding} as JSON by hand, byte for byte what {@link Json#write} writes for it: the
 * stream stores one per purchase sold (and its changelog carries it). A requestId that would need escaping goes
 * through Jackson.
 */
public final class HoldingJson {
    private HoldingJson() {}

    public static byte[] encode(GoodsFold.Holding h) {
        if (h.requestId() != null && !CommandCodec.plain(h.requestId())) return Json.write(h);
        StringBuilder b = new StringBuilder(96).append("{\"quantity\":").append(h.quantity());
        if (h.requestId() != null)
            b.append(",\"requestId\":\"").append(h.requestId()).append('"');
        b.append(",\"stockAfter\":")
                .append(h.stockAfter())
                .append(",\"paid\":")
                .append(h.paid())
                .append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
