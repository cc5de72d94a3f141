package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.HttpLoad;
import dev.seckill.infra.harness.LoadSpec;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.redis.RedisConnections;
import dev.seckill.reconcile.Reconciler;
import dev.seckill.stack.LocalTls;
import dev.seckill.stack.MariaDbServer;
import dev.seckill.stack.SecureRedis;
import dev.seckill.stack.ServerProcess;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The pipeline on stores secured as managed ones are: a TLS-only Redis (no plain port, the server verified against its
 * CA and host name) whose anonymous user is off, each service logged in as its own user made by the shipped {@code
 * deploy/redis-users.sh} (its namespace's keys, no administrative command); and a MariaDB whose application user is
 * created {@code REQUIRE SSL}, reached with {@code sslMode=VERIFY_IDENTITY} against its CA. A sale is decided and
 * written end to end; what a user may not do is refused and leaves nothing behind.
 */
class SecureStoresPipelineTest {
    static final List<String> REDIS_USERS =
            List.of("seckill-stock-stream", "seckill-gateway", "seckill-reconciler", "seckill-operator");
    static SecureRedis redis;
    static LocalTls dbTls;
    static MariaDbServer db;
    static final Map<String, String> PASSWORDS = new HashMap<>();
    static String dbPassword;
    static Namespace ns;
    static Pipeline pipeline;
    static OutcomeLog log;

    @BeforeAll
    static void start() throws Exception {
        String name = "sstore-" + UUID.randomUUID().toString().substring(0, 8);
        redis = SecureRedis.start(Map.of(), Map.of());
        Path secrets = ServerProcess.tempDir("seckill-redis-secrets-");
        for (String user : REDIS_USERS) {
            PASSWORDS.put(user, UUID.randomUUID() + "-" + UUID.randomUUID());
            Files.writeString(secrets.resolve("redis-" + user), PASSWORDS.get(user) + "\n");
        }
        String users = redisUsersScript(name + ":", secrets);
        assertThat(users).contains("redis user seckill-gateway: keys " + name + ":*");

        dbTls = LocalTls.create(ServerProcess.tempDir("seckill-db-tls-"));
        db = MariaDbServer.withTls(dbTls).start();
        dbPassword = UUID.randomUUID().toString();
        String database = "seckill_" + name.replace('-', '_');
        try (Connection root = DriverManager.getConnection(
                        db.jdbcUrl("") + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "");
                Statement st = root.createStatement()) {
            st.execute("CREATE USER 'seckill'@'%' IDENTIFIED BY '" + dbPassword + "' REQUIRE SSL");
            st.execute("GRANT ALL ON `" + database + "`.* TO 'seckill'@'%'");
        }

        Settings base = TestNamespaces.inProcess(
                        2,
                        Map.of(
                                Settings.DB_URL,
                                tlsDbUrl("seckill") + "&sslMode=VERIFY_IDENTITY",
                                Settings.DB_USER,
                                "seckill",
                                Settings.DB_PASSWORD,
                                dbPassword))
                .and(redisAs("seckill-operator")); // the tests' own reads and clean-up are the operator's
        ns = Namespace.create(base, name);
        assertThat(ns.database()).isEqualTo(database);
        pipeline = new Pipeline(ns)
                .as("stock-stream", redisAs("seckill-stock-stream"))
                .as("ingress-gateway", redisAs("seckill-gateway"))
                .start();
        log = new OutcomeLog(ns.settings(), pipeline.topics());
    }

    @AfterAll
    static void stop() {
        // each step on its own: a failing one never leaves the servers this test started running
        quietly(() -> log.close());
        quietly(() -> pipeline.close());
        quietly(() -> ns.deleteTopics());
        quietly(() -> ns.deleteRedisKeys());
        quietly(() -> ns.dropDatabase());
        quietly(() -> redis.close());
        quietly(() -> db.close());
    }

    static void quietly(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) { // NullPointerException included: the step's part never started
            System.err.println("clean-up step failed: " + e);
        }
    }

    static Map<String, String> redisAs(String user) {
        return redis.clientSettings(user, PASSWORDS.get(user));
    }

    /** The namespace's database on the TLS server, verified against the CA that signed its certificate. */
    static String tlsDbUrl(String database) {
        return db.jdbcUrl(database) + "?trustCertificateKeyStoreUrl=file:" + dbTls.truststore()
                + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=" + dbTls.password();
    }

    /** Runs the shipped deploy/redis-users.sh as the admin user, with redis-cli over TLS. */
    static String redisUsersScript(String prefix, Path secrets) throws Exception {
        Path script = Path.of("..", "deploy", "redis-users.sh").toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder("sh", script.toString()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("SECKILL_REDIS_PREFIX", prefix);
        env.put("SECRETS_DIR", secrets.toString());
        env.put(
                "REDIS_CLI",
                "redis-cli --tls --cacert " + redis.caCertificate() + " -h 127.0.0.1 -p " + redis.port() + " --user "
                        + SecureRedis.ADMIN);
        env.put("REDISCLI_AUTH", redis.adminPassword());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("deploy/redis-users.sh: " + out).isZero();
        return out;
    }

    @Test
    void aSaleIsDecidedAndWritten_eachServiceAsItsOwnRedisUser_theDatabaseOverTls() throws Exception {
        long goods = 5001;
        pipeline.openSale(goods, 10, Duration.ofHours(1), 1);
        HttpLoad.Result load = HttpLoad.run(
                LoadSpec.closed(pipeline.gatewayPort(), goods, 60, 10, 30, 11, pipeline::bearer)
                        .keepingIds(),
                n -> {});
        assertThat(load.errors()).isZero();
        assertThat(Drain.await(pipeline, log, goods, load.acceptedIds(), Duration.ofSeconds(60), n -> {}))
                .as("decided by stock-stream, orders written by order-writer")
                .isTrue();
        SaleAudit audit = SaleAudit.of(pipeline, goods, load.acceptedIds(), log.snapshot());
        assertThat(audit.violations).isEmpty();
        assertThat(audit.outcomesByKind.get(OutcomeKind.SUCCESS)).isEqualTo(10);
        assertThat(audit.ordersInDb).isEqualTo(10);

        try (UnifiedJedis admin = RedisConnections.open(Settings.with(redis.adminSettings()))) {
            String clients = new String((byte[]) admin.sendCommand(Protocol.Command.CLIENT, "LIST"));
            assertThat(clients)
                    .as("each service is connected as its own user")
                    .contains("user=seckill-stock-stream", "user=seckill-gateway", "user=seckill-operator")
                    .doesNotContain("user=default");
        }
        assertThat(tlsCipher(pipeline.db()))
                .as("order-writer's pool speaks TLS to the database")
                .isNotBlank();

        Settings reconciler = ns.settings().and(redisAs("seckill-reconciler"));
        try (UnifiedJedis r = RedisConnections.open(reconciler);
                var commands = ReliableProducers.create(reconciler);
                var rec = new Reconciler(reconciler, pipeline.db(), r, commands, new SimpleMeterRegistry(), true)) {
            assertThat(rec.cycle(goods)).extracting(Reconciler.Row::verdict).containsExactly("OK");
        }
    }

    @Test
    void aServiceUserMayNotTouchAnotherNamespaceNorAdministerRedis_andNothingIsWritten() {
        try (UnifiedJedis gateway = RedisConnections.open(ns.settings().and(redisAs("seckill-gateway")));
                UnifiedJedis admin = RedisConnections.open(Settings.with(redis.adminSettings()))) {
            assertThatThrownBy(() -> gateway.set("other-tenant:stock:5001", "1000"))
                    .isInstanceOf(JedisAccessControlException.class)
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.eval("return redis.call('SET', KEYS[1], '1')", 1, "other-tenant:x"))
                    .isInstanceOf(JedisDataException.class)
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.flushAll()).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.configGet("requirepass")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.keys("*")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.publish("any", "x")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.scriptFlush()).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> gateway.randomKey()).hasMessageContaining("NOPERM");
            assertThat(admin.exists("other-tenant:stock:5001", "other-tenant:x"))
                    .as("nothing written")
                    .isZero();
        }
    }

    @Test
    void redisRefusesTheAnonymous_aWrongPassword_plainText_andAServerItCannotVerify() {
        Settings anonymous = Settings.with(Map.of(
                "redis.url", redis.url(),
                "redis.tls.truststore", redis.adminSettings().get("redis.tls.truststore"),
                "redis.tls.truststore.password", redis.adminSettings().get("redis.tls.truststore.password")));
        try (UnifiedJedis j = RedisConnections.open(anonymous)) {
            assertThatThrownBy(j::ping).hasMessageContaining("NOAUTH");
        }
        Map<String, String> wrong = new HashMap<>(redisAs("seckill-gateway"));
        wrong.put("redis.password", "not-" + PASSWORDS.get("seckill-gateway"));
        assertThatThrownBy(() -> {
                    try (UnifiedJedis j = RedisConnections.open(Settings.with(wrong))) {
                        j.ping();
                    }
                })
                .hasMessageContaining("WRONGPASS");
        Map<String, String> plain = new HashMap<>(redisAs("seckill-gateway"));
        plain.put("redis.url", "redis://127.0.0.1:" + redis.port());
        assertThatThrownBy(() -> {
                    try (UnifiedJedis j = RedisConnections.open(Settings.with(plain))) {
                        j.ping();
                    }
                })
                .isInstanceOf(JedisConnectionException.class);
        Map<String, String> untrusted = new HashMap<>(redisAs("seckill-gateway"));
        untrusted.put("redis.tls.truststore", ""); // the JVM's CAs: they never signed this server's certificate
        assertThatThrownBy(() -> {
                    try (UnifiedJedis j = RedisConnections.open(Settings.with(untrusted))) {
                        j.ping();
                    }
                })
                .isInstanceOf(JedisConnectionException.class)
                .hasStackTraceContaining("PKIX");
    }

    @Test
    void theDatabaseRefusesItsUserWithoutTls_andAServerItCannotVerify() {
        String plain = db.jdbcUrl(ns.database()) + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        assertThatThrownBy(() -> DriverManager.getConnection(plain, "seckill", dbPassword)
                        .close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Access denied");
        String unverified = db.jdbcUrl(ns.database()) + "?sslMode=VERIFY_CA"; // the JVM's CAs only
        assertThatThrownBy(() -> DriverManager.getConnection(unverified, "seckill", dbPassword)
                        .close())
                .isInstanceOf(SQLException.class)
                .hasStackTraceContaining("PKIX");
    }

    static String tlsCipher(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            return rs.next() ? rs.getString(2) : "";
        }
    }
}
