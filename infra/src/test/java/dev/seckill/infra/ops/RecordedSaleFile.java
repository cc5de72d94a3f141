package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.stock.draw.beacon.BeaconChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/** A file {@code draw export} wrote, as a JSON tree a test tampers with the way a forger would. */
final class RecordedSaleFile {
    private final ObjectNode root;

    private RecordedSaleFile(ObjectNode root) {
        this.root = root;
    }

    static RecordedSaleFile read(Path file) throws IOException {
        return new RecordedSaleFile((ObjectNode) Json.MAPPER.readTree(Files.readAllBytes(file)));
    }

    RecordedSaleFile copy() {
        return new RecordedSaleFile(root.deepCopy());
    }

    void write(Path file) throws IOException {
        Files.write(file, Json.MAPPER.writeValueAsBytes(root));
    }

    private ObjectNode drawnEntry() {
        for (JsonNode l : root.path("ledger"))
            if ("DRAWN".equals(l.path("entry").path("type").asText())) return (ObjectNode) l.path("entry");
        throw new IllegalStateException("no DRAWN entry in the recording");
    }

    RecordedSaleFile withDrawn(Consumer<ObjectNode> change) {
        change.accept((ObjectNode) drawnEntry().path("draw"));
        return this;
    }

    RecordedSaleFile withDrawnEntry(Consumer<ObjectNode> change) {
        change.accept(drawnEntry());
        return this;
    }

    RecordedSaleFile withoutDrawn() {
        Iterator<JsonNode> it = root.path("ledger").elements();
        while (it.hasNext())
            if ("DRAWN".equals(it.next().path("entry").path("type").asText())) it.remove();
        return this;
    }

    /** A command appended {@code later} after the newest one (time passes in the recording). */
    RecordedSaleFile withLaterCommand(long goods, Duration later) {
        ArrayNode commands = (ArrayNode) root.path("commands");
        JsonNode last = commands.get(commands.size() - 1);
        ObjectNode c = commands.addObject();
        c.put("offset", last.path("offset").asLong() + 1);
        c.put("timestamp", last.path("timestamp").asLong() + later.toMillis());
        c.put("timestampType", "LogAppendTime");
        c.put("key", Long.toString(goods));
        c.put("value", Base64.getEncoder().encodeToString(CommandCodec.encode(new CloseSale(goods, "close-later"))));
        return this;
    }

    /**
     * The last entry left out of the draw as a stream that stopped reading early would: the DRAWN entry's
     * throughOffset before it, its digest and count over the others.
     */
    RecordedSaleFile leavingOutTheLastEntry() throws IOException {
        Path tmp = Files.createTempFile("recorded-sale", ".json");
        try {
            write(tmp);
            DrawRecords records = DrawRecords.read(tmp, h -> null);
            BeaconChain chain = records.chain();
            DrawCheck.Result r = DrawCheck.check(records).get(0);
            List<byte[]> leaves = new ArrayList<>(r.leaves());
            DrawCheck.Entry last = r.entries().get(r.entries().size() - 1);
            leaves.remove(leaves.size() - 1);
            return withDrawn(d -> {
                d.put("throughOffset", last.offset() - 1);
                d.put("digest", Draw.hex(EntryTree.root(leaves)));
                d.put("entries", leaves.size());
                if (chain == null) throw new IllegalStateException("the recording names no beacon");
            });
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
