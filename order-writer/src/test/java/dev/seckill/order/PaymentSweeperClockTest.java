package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.kit.config.GroupIds;
import dev.seckill.order.db.Database;
import dev.seckill.order.lifecycle.PaymentTimeoutSweeper;
import dev.seckill.order.lifecycle.PaymentsProgress;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sweeper judges deadlines by one clock, the database's, where created_at is stored: a writer host whose clock is
 * ahead of the database's (here by an hour) must not take "the payments topic is written up to my now" for "written past
 * the order's deadline" and cancel an order whose payment, made on time, is still unread in the topic.
 */
class PaymentSweeperClockTest {
    static final Duration DB_BEHIND_HOST = Duration.ofHours(1);
    static final Duration DEADLINE = Duration.ofSeconds(2);
    final WriterStack stack = new WriterStack(1);
    HikariDataSource pool;

    @AfterEach
    void cleanUp() throws Exception {
        if (pool != null) pool.close();
        stack.close();
    }

    /** The database as a server whose clock is behind this host's: every connection's session time is set so. */
    static DataSource behindHost(DataSource db, Duration behind) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = method.invoke(db, args);
                    if (result instanceof Connection c) {
                        try (Statement s = c.createStatement()) {
                            long at = System.currentTimeMillis() - behind.toMillis();
                            s.execute("SET timestamp = " + BigDecimal.valueOf(at, 3));
                        }
                    }
                    return result;
                });
    }

    static String text(DataSource db, String sql, Object... args) throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Test
    void aHostClockAheadOfTheDatabases_cancelsNoOrderWhosePaymentIsUnread_untilThePaymentsAreWrittenPastIt()
            throws Exception {
        pool = Database.open(stack.settings, stack.name);
        DataSource db = behindHost(pool, DB_BEHIND_HOST);
        String group = GroupIds.orderWriter(stack.settings);
        PaymentsProgress progress = new PaymentsProgress(stack.admin, group, stack.topics.payments(), db);
        PaymentTimeoutSweeper sweeper = new PaymentTimeoutSweeper(
                db, stack.producer, stack.topics, DEADLINE, Duration.ZERO, progress, new SimpleMeterRegistry());
        try (Connection c = db.getConnection()) {
            c.createStatement()
                    .executeUpdate("INSERT INTO purchase_order (request_id, goods_id, user_id, quantity, status, "
                            + "live_user_id) VALUES ('skewed-1', 9001, 1, 1, 'CREATED', 1)");
        }
        long firstMark = progress.writtenUntil(); // nothing on the payments topic yet: written up to now

        // paid on time, appended to the topic, not yet written by any writer (the writer lags)
        long orderId = Long.parseLong(text(db, "SELECT order_id FROM purchase_order WHERE request_id = 'skewed-1'"));
        stack.send(
                stack.topics.payments(),
                Long.toString(orderId),
                Payment.of("pay-skewed", orderId, Instant.now().minus(DB_BEHIND_HOST)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> text(
                                db,
                                "SELECT 1 FROM purchase_order WHERE order_id = ? AND created_at < NOW(3) - "
                                        + "INTERVAL 2 SECOND",
                                orderId)
                        != null);
        for (int i = 0; i < 5; i++) sweeper.sweep();
        assertThat(text(db, "SELECT status FROM purchase_order WHERE order_id = ?", orderId))
                .as("overdue, but its payment may be unread in the topic")
                .isEqualTo("CREATED");

        // the writers' group commits past the payment (and, here, nothing paid the order): now it is cancelled
        stack.admin
                .alterConsumerGroupOffsets(
                        group, Map.of(new TopicPartition(stack.topics.payments(), 0), new OffsetAndMetadata(1)))
                .all()
                .get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            sweeper.sweep();
            return "CANCELLED".equals(text(db, "SELECT status FROM purchase_order WHERE order_id = ?", orderId));
        });
        assertThat(text(db, "SELECT release_sent_at FROM purchase_order WHERE order_id = ?", orderId))
                .isNotNull();
        assertThat(firstMark)
                .as("the marks are moments by the database's clock")
                .isCloseTo(System.currentTimeMillis() - DB_BEHIND_HOST.toMillis(), within(60_000L));
    }
}
