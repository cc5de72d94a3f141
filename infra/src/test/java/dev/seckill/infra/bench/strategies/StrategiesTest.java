package dev.seckill.infra.bench.strategies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.infra.harness.audit.StrategyAudit;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.db.JdbcUrls;
import dev.seckill.stack.KafkaFixture;
import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Given a small sale (20 units, 600 purchases from 40 concurrent buyers over 150 buyers), when each baseline strategy
 * serves it over HTTP on the real MariaDB, Redis and Kafka and its asynchronous orders (if any) have drained, then it
 * sold at most the stock, no unit twice to a buyer, every SUCCESS it answered has its order row and the DB stock is the
 * stock minus the orders — the claims the comparison table relies on.
 */
@Tag("light")
class StrategiesTest {
    static final long STOCK = 20;

    @ParameterizedTest
    @ValueSource(strings = {"pessimistic", "optimistic", "sync"})
    void aBaselineSellsTheStockOnceAndWritesEveryConfirmedSale(String strategy) throws Exception {
        Settings base = Settings.with(Map.of(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()));
        Namespace ns = Namespace.create(
                base,
                "strat-test-" + strategy + "-" + UUID.randomUUID().toString().substring(0, 6));
        try {
            BaselineSale.prepare(ns, strategy, Map.of(Sales.GOODS, STOCK));
            BuyerLoad load;
            try (StrategyServer server = new StrategyServer(StrategyMain.open(strategy, ns.settings()), 0)) {
                load = new BuyerLoad(
                                new BuyerLoad.Spec(server.port(), Sales.GOODS, 600, 40, 150, 3, 0),
                                done -> {},
                                Integer.MAX_VALUE,
                                null)
                        .run();
                String url = JdbcUrls.withDriverDefaults(ns.settings().dbUrl());
                try (Connection c = Sales.connect(url, "root", "")) {
                    long told = Arrays.stream(load.outcome)
                            .filter("SUCCESS"::equals)
                            .count();
                    await().atMost(Duration.ofSeconds(60)).until(() -> Sales.liveOrders(c, Sales.GOODS) >= told);
                    SaleFacts facts =
                            SaleFacts.ofDatabase(c, Sales.GOODS, STOCK).told(load);
                    StrategyAudit audit = StrategyAudit.of(facts);

                    assertThat(load.outcome).doesNotContainNull().doesNotContain(BuyerLoad.NO_ANSWER);
                    assertThat(audit.oversold()).isZero();
                    assertThat(audit.duplicateBuyers()).isZero();
                    assertThat(audit.lost()).isZero();
                    assertThat(audit.confirmed())
                            .isEqualTo(audit.sold())
                            .isEqualTo(told)
                            .isPositive();
                    assertThat(audit.stockLeft()).isEqualTo(STOCK - audit.sold());
                    if (!strategy.equals("optimistic")) assertThat(audit.sold()).isEqualTo(STOCK);
                    SaleAudit checked = SaleAudit.of(facts);
                    assertThat(checked.violations).as(checked.what()).isEmpty();
                    assertThat(checked.lines()).hasSize(3); // invariants 1, 2, 3 from the DB and the buyers' answers
                }
            }
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }
}
