package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
import dev.seckill.reconcile.GoodsDrift;
import dev.seckill.reconcile.Reconciler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/** {@code ./seckill reconcile}: one reconciler cycle, ledger vs Redis vs DB per goods; a dry run unless {@code --repair}. */
public final class ReconcileCommand {
    private ReconcileCommand() {}

    public static int run(Settings settings, Flags f, PrintStream out) throws Exception {
        Long goods = f.has("goods") ? f.getLong("goods", 0) : null;
        KafkaClients.require(settings, "run ./seckill up");
        settings = NamespaceCommands.chosen(settings, f);
        try (UnifiedJedis redis = RedisConnections.open(settings);
                var db = Database.open(settings, "reconcile");
                var producer = ReliableProducers.create(settings);
                Reconciler reconciler =
                        new Reconciler(settings, db, redis, producer, new SimpleMeterRegistry(), !f.has("repair"))) {
            List<Reconciler.Row> rows = reconciler.cycle(goods);
            // with --json stdout is the document only: the notes go to stderr
            PrintStream notes = f.has("json") ? System.err : out;
            if (f.has("json")) out.println(json(settings.topicPrefix(), !f.has("repair"), rows));
            else out.print(Reconciler.render(rows));
            if (rows.isEmpty()) notes.println("(no goods in " + settings.topicPrefix() + "ledger)");
            if (!f.has("repair")) notes.println("(dry run: nothing repaired; --repair to act)");
            return rows.stream().allMatch(r -> r.verdict().equals("OK")) ? 0 : 1;
        }
    }

    /** {@code reconcile --json}: the summary's columns per goods (null where the text shows {@code -}), and the verdict. */
    static String json(String namespace, boolean dryRun, List<Reconciler.Row> rows) {
        ObjectNode root = JsonOutput.object();
        root.put("namespace", namespace);
        root.put("dryRun", dryRun);
        root.put("allOk", rows.stream().allMatch(r -> r.verdict().equals("OK")));
        ArrayNode goods = root.putArray("goods");
        for (Reconciler.Row r : rows) {
            GoodsDrift d = r.drift();
            ObjectNode g = goods.addObject();
            g.put("goodsId", d.goodsId());
            g.put("opened", d.opened());
            g.put("deducted", d.deducted());
            g.put("released", d.released());
            g.put("ledgerStock", d.ledgerStock());
            g.put("ledgerLiveBuyers", d.ledgerLiveBuyers());
            g.put("redisStock", d.redisStock());
            g.put("redisBuyers", d.redisBuyers());
            g.put("dbStock", d.dbStock());
            g.put("dbLiveOrders", d.dbLiveOrders());
            g.put("dbLedgerStock", d.dbLedgerStock());
            g.put("verdict", r.verdict());
            g.set("repairs", JsonOutput.tree(r.repairs()));
        }
        return JsonOutput.render(root);
    }
}
