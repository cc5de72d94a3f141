package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.MariaDbServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The database goes down for 20+ s in the middle of a sale (its own mariadbd on a spare port, never the machine's):
 * the writer pauses and retries, nothing is lost or duplicated, and once the DB is back every SUCCESS has exactly one
 * order and DB stock = Redis = ledger.
 */
class DbOutageTest {

    @Test
    void aTwentySecondDatabaseOutageLosesAndDuplicatesNothing() throws Exception {
        try (MariaDbServer db = MariaDbServer.onFreePort().start()) {
            Settings settings = TestNamespaces.inProcess(4);
            Namespace ns = TestNamespaces.create(
                    settings, "dbdown-" + UUID.randomUUID().toString().substring(0, 8));
            ns = new Namespace(
                    ns.name(),
                    ns.settings()
                            .and(Map.of(
                                    Settings.DB_URL,
                                    db.jdbcUrl(ns.database()) + "?createDatabaseIfNotExist=true",
                                    "db.connect.timeout.ms",
                                    "2000")));
            long goods = 9001;
            Set<String> sent = new HashSet<>();
            Random random = new Random(9);
            try (Pipeline p = new Pipeline(ns).start();
                    OutcomeLog log = new OutcomeLog(ns.settings(), p.topics())) {
                p.openSale(goods, 120, Duration.ofHours(1), 1);
                for (int i = 0; i < 80; i++) sent.add(buy(p, goods, random, "before-" + i));
                db.stop();
                assertThat(db.isRunning()).isFalse();
                // the sale goes on for 20 s with the DB down: one purchase every 100 ms
                Instant until = Instant.now().plusSeconds(20);
                for (int i = 0; Instant.now().isBefore(until); i++) {
                    Instant next = Instant.now().plusMillis(100);
                    sent.add(buy(p, goods, random, "during-" + i));
                    await().pollDelay(Duration.ZERO)
                            .pollInterval(Duration.ofMillis(10))
                            .until(() -> !Instant.now().isBefore(next));
                }
                db.start();
                for (int i = 0; i < 40; i++) sent.add(buy(p, goods, random, "after-" + i));

                assertThat(Drain.await(p, log, goods, sent, Duration.ofSeconds(120), n -> {}))
                        .isTrue();
                SaleAudit audit = SaleAudit.of(p, goods, sent, log.snapshot());
                assertThat(audit.violations).isEmpty();
                assertThat(audit.ordersInDb).isEqualTo(audit.outcomesByKind.get(OutcomeKind.SUCCESS));
                assertThat(audit.ordersInDb).as("demand exceeded stock").isEqualTo(120);
                assertThat(p.metrics()
                                .get("seckill_writer_db_retries")
                                .counter()
                                .count())
                        .as("the writer really met the outage")
                        .isPositive();
            }
        }
    }

    static String buy(Pipeline p, long goods, Random random, String id) {
        p.send(new Purchase(id, goods, 1 + random.nextInt(250), 1, Instant.now()));
        return id;
    }
}
