package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.EntryTree;
import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code ./seckill draw verify --goods G [--namespace NS | --file FILE] [--request ID]}: every draw of the goods
 * recomputed from the recorded topics (or a recorded file) and the beacon's key alone ({@link DrawCheck}); exit 0 when
 * each follows, 1 naming each fault. {@code ./seckill draw export --goods G --out FILE}: the recorded sale as a file.
 */
public final class DrawCommand {
    private DrawCommand() {}

    public static int verify(Settings settings, Flags f, PrintStream out) {
        DrawRecords records = records(settings, f);
        if (f.has("allow-create-time")) records = records.allowingCreateTime();
        List<DrawCheck.Result> results = DrawCheck.check(records);
        String where = f.has("file")
                ? f.get("file", "")
                : NamespaceCommands.chosen(settings, f).topicPrefix() + "*";
        if (f.has("json")) out.println(json(records.goodsId(), results));
        else out.print(text(records.goodsId(), where, results));
        if (f.has("request")) out.print(inclusion(results, f.get("request", "")));
        boolean verified = !results.isEmpty() && results.stream().allMatch(DrawCheck.Result::follows);
        return verified ? 0 : 1;
    }

    public static int export(Settings settings, Flags f, PrintStream out) {
        DrawRecords records = records(settings, f);
        Path file = Path.of(f.get("out", ""));
        try {
            Files.write(file, records.export());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        out.printf(
                "goods %d: %d commands, %d ledger entries, %d outcomes written to %s%n",
                records.goodsId(),
                records.commands().size(),
                records.ledger().size(),
                records.outcomes().size(),
                file);
        return 0;
    }

    private static DrawRecords records(Settings settings, Flags f) {
        if (f.has("file")) {
            Path file = Path.of(f.get("file", ""));
            try {
                return DrawRecords.read(file, DrawBeacons.chains(settings));
            } catch (IOException e) {
                throw new Flags.UsageError("cannot read --file " + file + ": " + e.getMessage());
            }
        }
        if (!f.has("goods")) throw new Flags.UsageError("draw verify needs --goods N (or --file FILE)");
        KafkaClients.require(settings, "run ./seckill up");
        Settings ns = NamespaceCommands.chosen(settings, f);
        return DrawRecords.read(ns, f.getLong("goods", 0), DrawBeacons.chains(ns));
    }

    static String text(long goods, String where, List<DrawCheck.Result> results) {
        if (results.isEmpty()) return "goods " + goods + " in " + where + ": no drawn sale recorded\n";
        StringBuilder b = new StringBuilder();
        for (DrawCheck.Result r : results) {
            b.append(String.format(
                    "goods %d, the draw opened at commands offset %d: %d entries, %d buyers drawn, %d winners by the"
                            + " draw, %d SUCCESS recorded%n",
                    goods,
                    r.openOffset(),
                    r.entries().size(),
                    r.buyers(),
                    r.expectedWinners().size(),
                    r.recordedWinners().size()));
            Map<Long, Integer> ranks = r.ranks();
            if (!r.order().isEmpty()) {
                b.append("  the draw's first buyers: ");
                for (long u : r.order().subList(0, Math.min(10, r.order().size())))
                    b.append("#")
                            .append(ranks.get(u))
                            .append(" user ")
                            .append(u)
                            .append("  ");
                b.append(String.format("%n"));
            }
            r.notes().forEach(n -> b.append("  note: ").append(n).append('\n'));
            if (r.follows() && !r.pending())
                b.append("  OK: the beacon round verifies and came after the cutoff, the entries give the published"
                        + " digest, the seed, winners and outcomes follow the draw\n");
            else if (!r.follows()) {
                b.append("  FAILED: ").append(r.problems().size()).append(" problems\n");
                r.problems().stream()
                        .limit(20)
                        .forEach(p -> b.append("    ").append(p).append('\n'));
            }
        }
        return b.toString();
    }

    /** A purchase's leaf, its inclusion proof against the digest, and its buyer's rank. */
    static String inclusion(List<DrawCheck.Result> results, String requestId) {
        for (DrawCheck.Result r : results) {
            List<byte[]> leaves = r.leaves();
            for (DrawCheck.Entry e : r.entries()) {
                if (!e.purchase().requestId().equals(requestId)) continue;
                StringBuilder b = new StringBuilder();
                b.append(String.format(
                        "%s: entry %d of %d (commands offset %d), buyer %d ranked #%d of %d%n",
                        requestId,
                        e.index(),
                        leaves.size(),
                        e.offset(),
                        e.purchase().userId(),
                        r.ranks().getOrDefault(e.purchase().userId(), 0),
                        r.order().size()));
                b.append("  leaf ").append(Draw.hex(e.leaf())).append('\n');
                b.append("  proof (RFC 9162 audit path, leaf to root):\n");
                for (byte[] h : EntryTree.proof(leaves, e.index()))
                    b.append("    ").append(Draw.hex(h)).append('\n');
                b.append("  root ").append(Draw.hex(EntryTree.root(leaves))).append('\n');
                return b.toString();
            }
        }
        return requestId + ": not an entry of any draw of the goods\n";
    }

    static String json(long goods, List<DrawCheck.Result> results) {
        ObjectNode root = JsonOutput.object();
        root.put("goodsId", goods);
        root.put("verified", !results.isEmpty() && results.stream().allMatch(DrawCheck.Result::follows));
        ArrayNode draws = root.putArray("draws");
        for (DrawCheck.Result r : results) {
            ObjectNode d = draws.addObject();
            d.put("openOffset", r.openOffset());
            d.put("pending", r.pending());
            d.put("entries", r.entries().size());
            d.put("buyers", r.buyers());
            d.put("winners", r.expectedWinners().size());
            d.put("successRecorded", r.recordedWinners().size());
            d.put("follows", r.follows());
            d.set("order", JsonOutput.tree(r.order()));
            d.set("problems", JsonOutput.tree(r.problems()));
            d.set("notes", JsonOutput.tree(r.notes()));
        }
        return JsonOutput.render(root);
    }
}
