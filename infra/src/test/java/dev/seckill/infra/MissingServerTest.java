package dev.seckill.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.Seckill;
import dev.seckill.stack.KafkaFixture;
import dev.seckill.stack.ServerProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A missing server gives one readable line naming the component and its address, and exit code 2. */
class MissingServerTest {
    @AfterEach
    void clear() {
        System.clearProperty("seckill.kafka.bootstrap");
        System.clearProperty("seckill.redis.url");
        System.clearProperty("seckill.db.url");
        System.clearProperty("seckill.kafka.security.protocol");
        System.clearProperty("seckill.kafka.ssl.truststore.location");
    }

    String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Seckill.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        } finally {
            System.setErr(oldErr);
        }
        return new String[] {Integer.toString(code), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void kafkaMissing() {
        int port = ServerProcess.freePort();
        System.setProperty("seckill.kafka.bootstrap", "127.0.0.1:" + port);
        String[] r = run("reconcile");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip())
                .isEqualTo("seckill: Kafka is not reachable at 127.0.0.1:" + port + " (run ./seckill up)");
    }

    @Test
    void redisMissing() {
        int port = ServerProcess.freePort();
        System.setProperty("seckill.kafka.bootstrap", KafkaFixture.bootstrap());
        System.setProperty("seckill.redis.url", "redis://127.0.0.1:" + port);
        String[] r = run("reconcile");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip())
                .isEqualTo("seckill: Redis is not reachable at 127.0.0.1:" + port
                        + " (start it or set SECKILL_REDIS_URL)");
    }

    @Test
    void mysqlMissing() {
        int port = ServerProcess.freePort();
        System.setProperty("seckill.kafka.bootstrap", KafkaFixture.bootstrap());
        System.setProperty("seckill.db.url", "jdbc:mysql://127.0.0.1:" + port + "/seckill");
        String[] r = run("reconcile");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip())
                .isEqualTo(
                        "seckill: MySQL is not reachable at 127.0.0.1:" + port + " (start it or set SECKILL_DB_URL)");
    }

    @Test
    void anUnknownKafkaSecurityProtocolIsOneLine() {
        System.setProperty("seckill.kafka.bootstrap", KafkaFixture.bootstrap());
        System.setProperty("seckill.kafka.security.protocol", "TLS");
        String[] r = run("reconcile");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip())
                .isEqualTo("seckill: Kafka client configuration: security.protocol 'TLS' is not one of PLAINTEXT, SSL,"
                        + " SASL_PLAINTEXT, SASL_SSL (SECKILL_KAFKA_SECURITY_PROTOCOL)");
    }

    @Test
    void aMissingTruststoreIsOneLine() {
        System.setProperty("seckill.kafka.bootstrap", KafkaFixture.bootstrap());
        System.setProperty("seckill.kafka.security.protocol", "SSL");
        System.setProperty("seckill.kafka.ssl.truststore.location", "/nowhere/truststore.p12");
        String[] r = run("load", "--requests", "1");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip())
                .isEqualTo("seckill: Kafka client configuration: ssl.truststore.location /nowhere/truststore.p12 is not"
                        + " a readable file (SECKILL_KAFKA_SSL_TRUSTSTORE_LOCATION)");
    }

    @Test
    void aBadFlagIsOneLineToo() {
        String[] r = run("demo", "--stock", "lots");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip()).isEqualTo("seckill: --stock must be a number, got 'lots'");
    }
}
