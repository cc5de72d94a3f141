package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.infra.harness.Pipeline;
import dev.seckill.kit.config.Settings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The producer examples of docs/examples — Java (kafka-clients and Jackson only) and Python (Debian's
 * python3-confluent-kafka) — against the real pipeline: each sends a purchase straight to the commands topic as
 * docs/contracts.md tells an upstream service to, reads its one outcome back, and its SUCCESS becomes an order row. Sent
 * twice with the same requestId (a producer's retry), it is still one purchase.
 */
class ProducerExamplesTest {
    static final long GOODS = 3201;
    static Pipeline pipeline;

    @BeforeAll
    static void start() {
        Settings settings = TestNamespaces.inProcess(3);
        pipeline = new Pipeline(TestNamespaces.create(
                        settings, "producers-" + UUID.randomUUID().toString().substring(0, 8)))
                .start();
        pipeline.openSale(GOODS, 10, Duration.ofHours(1), 1);
    }

    @AfterAll
    static void cleanUp() throws Exception {
        if (pipeline == null) return;
        pipeline.close();
        pipeline.namespace().deleteTopics();
        pipeline.namespace().deleteRedisKeys();
        pipeline.namespace().dropDatabase();
    }

    static String[] args(long user, String requestId) {
        Settings s = pipeline.namespace().settings();
        return new String[] {s.kafkaBootstrap(), s.topicPrefix(), Long.toString(GOODS), Long.toString(user), requestId};
    }

    static long orders(String requestId) throws Exception {
        return Long.parseLong(orderColumn("COUNT(*)", requestId));
    }

    /** The order row's trace id. */
    static String traceOf(String requestId) throws Exception {
        return orderColumn("MAX(trace_id)", requestId);
    }

    /** One aggregate over the goods' order rows of {@code requestId}. */
    private static String orderColumn(String aggregate, String requestId) throws Exception {
        try (Connection c = pipeline.db().getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT " + aggregate + " FROM purchase_order WHERE goods_id = ? AND request_id = ?")) {
            ps.setLong(1, GOODS);
            ps.setString(2, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** The trace id the examples put in their W3C traceparent: the SHA-256 of the requestId, its first 16 bytes. */
    static String exampleTraceId(String requestId) throws Exception {
        byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                .digest(requestId.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(h, 0, 16);
    }

    @Test
    void theJavaProducer_sendsAPurchase_andReadsItsOutcome_anOrderIsWritten() throws Exception {
        String rid = "shop-java:" + UUID.randomUUID();
        assertThat(Examples.runJava("PurchaseProducer", args(41, rid))).isEqualTo(rid + " SUCCESS\n");
        assertThat(Examples.runJava("PurchaseProducer", args(41, rid)))
                .as("the same requestId again: the same one outcome")
                .isEqualTo(rid + " SUCCESS\n");
        await().atMost(Duration.ofSeconds(60)).until(() -> orders(rid) == 1);
        assertThat(traceOf(rid))
                .as("its W3C traceparent's trace id, on the order row")
                .isEqualTo(exampleTraceId(rid));
    }

    @Test
    void thePythonProducer_sendsAPurchase_andReadsItsOutcome_anOrderIsWritten() throws Exception {
        Assumptions.assumeTrue(Examples.pythonKafka(), "no python3-confluent-kafka (./seckill test installs it)");
        String rid = "shop-py:" + UUID.randomUUID();
        assertThat(Examples.runPython("purchase_producer.py", args(42, rid))).isEqualTo(rid + " SUCCESS\n");
        assertThat(Examples.runPython("purchase_producer.py", args(42, rid))).isEqualTo(rid + " SUCCESS\n");
        await().atMost(Duration.ofSeconds(60)).until(() -> orders(rid) == 1);
        assertThat(traceOf(rid)).isEqualTo(exampleTraceId(rid));
    }
}
