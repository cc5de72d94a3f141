package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code ./seckill draw verify --goods G [--namespace NS]}: every draw of the goods recomputed from the recorded topics
 * alone ({@link DrawCheck}); exit 0 when each one's outcomes follow it, 1 when one does not or none was drawn.
 */
public final class DrawCommand {
    private DrawCommand() {}

    public static int verify(Settings settings, Flags f, PrintStream out) {
        KafkaClients.require(settings, "run ./seckill up");
        Settings ns = NamespaceCommands.chosen(settings, f);
        long goods = f.getLong("goods", 0);
        DrawRecords records = DrawRecords.read(ns, goods);
        List<DrawCheck.Result> results =
                DrawCheck.check(goods, records.commands(), records.ledger(), records.outcomes());
        out.print(f.has("json") ? json(goods, results) + "\n" : text(goods, ns.topicPrefix(), results));
        return !results.isEmpty() && results.stream().allMatch(DrawCheck.Result::follows) ? 0 : 1;
    }

    static String text(long goods, String prefix, List<DrawCheck.Result> results) {
        if (results.isEmpty())
            return "goods " + goods + " in " + prefix
                    + "*: no draw recorded (no lottery sale of it has closed its window)\n";
        StringBuilder b = new StringBuilder();
        for (DrawCheck.Result r : results) {
            b.append(String.format(
                    "goods %d, the lottery opened at commands offset %d: %d buyers drawn, %d winners by the draw, %d SUCCESS"
                            + " recorded%n",
                    goods,
                    r.openOffset(),
                    r.buyers(),
                    r.expectedWinners().size(),
                    r.recordedWinners().size()));
            Map<Long, Integer> ranks = r.ranks();
            List<Long> first = r.order().subList(0, Math.min(10, r.order().size()));
            b.append("  the draw's first buyers: ");
            for (long u : first)
                b.append("#").append(ranks.get(u)).append(" user ").append(u).append("  ");
            b.append(String.format("%n"));
            if (r.follows())
                b.append(
                        "  OK: the seed opens the commitment published at the open, and the outcomes follow the draw\n");
            else {
                b.append("  FAILED: ").append(r.problems().size()).append(" problems\n");
                r.problems().stream()
                        .limit(20)
                        .forEach(p -> b.append("    ").append(p).append('\n'));
            }
        }
        return b.toString();
    }

    static String json(long goods, List<DrawCheck.Result> results) {
        ObjectNode root = JsonOutput.object();
        root.put("goodsId", goods);
        root.put("verified", !results.isEmpty() && results.stream().allMatch(DrawCheck.Result::follows));
        ArrayNode draws = root.putArray("draws");
        for (DrawCheck.Result r : results) {
            ObjectNode d = draws.addObject();
            d.put("openOffset", r.openOffset());
            d.put("buyers", r.buyers());
            d.put("winners", r.expectedWinners().size());
            d.put("successRecorded", r.recordedWinners().size());
            d.put("follows", r.follows());
            d.set("order", JsonOutput.tree(r.order()));
            d.set("problems", JsonOutput.tree(r.problems()));
        }
        return JsonOutput.render(root);
    }
}
