package dev.seckill.infra.ops;

import dev.seckill.infra.harness.Flags;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.order.db.Database;
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
            out.print(Reconciler.render(rows));
            if (rows.isEmpty()) out.println("(no goods in " + settings.topicPrefix() + "ledger)");
            if (!f.has("repair")) out.println("(dry run: nothing repaired; --repair to act)");
            return rows.stream().allMatch(r -> r.verdict().equals("OK")) ? 0 : 1;
        }
    }
}
