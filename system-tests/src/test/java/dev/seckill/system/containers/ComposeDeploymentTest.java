package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Sales;
import dev.seckill.infra.harness.StreamGroup;
import dev.seckill.infra.harness.audit.SaleAudit;
import dev.seckill.infra.harness.audit.SaleFacts;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * deploy/compose.yaml as an operator runs it: the images {@code ./seckill images} builds, on a podman network of the
 * test's own, the services finding Kafka, Redis and MariaDB by name. Every probe and scrape target is asked from outside
 * its container, on the container's own address (as a kubelet and Prometheus reach it), and a sale of 1,000 units to
 * 500 buyers goes through the containers with the stream container owning the sale SIGKILLed mid-sale: the second
 * stream container decides the sale's purchases while the first is down, then the first is started again.
 * Skipped, with one line saying why, where podman cannot run containers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag(Podman.CONTAINERS)
class ComposeDeploymentTest {
    static final List<String> SERVICES = List.of(
            "kafka",
            "redis",
            "mariadb",
            "ingress-gateway",
            "stock-stream",
            "stock-stream-2",
            "order-writer",
            "reconciler");
    static final List<String> STREAMS = List.of("stock-stream", "stock-stream-2");
    /** Each service's probe and scrape endpoints: port → paths (docs/operations.md, "Probes and metrics"). */
    static final Map<String, Map<Integer, List<String>>> ENDPOINTS = Map.of(
            "ingress-gateway", Map.of(8080, List.of("/live", "/health"), 9401, List.of("/live", "/metrics")),
            "stock-stream", Map.of(9402, List.of("/live", "/health", "/metrics")),
            "stock-stream-2", Map.of(9402, List.of("/live", "/health", "/metrics")),
            "order-writer", Map.of(9403, List.of("/live", "/health", "/metrics")),
            "reconciler", Map.of(9404, List.of("/live", "/health", "/metrics")));

    static final long GOODS = 7001;
    static final int STOCK = 1000;
    static final int BUYERS = 500;

    static ComposeProject project;
    static TestSecrets secrets;
    static int gatewayPort;
    static int kafkaPort;
    static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void up() throws Exception {
        String why = Podman.unusable();
        if (why != null) System.out.println("ComposeDeploymentTest skipped: " + why);
        assumeTrue(why == null, why);
        Images.ensureBuilt();
        String cannot = Podman.cannotRun("seckill/ingress-gateway:" + Images.tag());
        if (cannot != null) System.out.println("ComposeDeploymentTest" + " skipped: " + cannot);
        assumeTrue(cannot == null, cannot);
        gatewayPort = ServerProcess.freePort();
        kafkaPort = ServerProcess.freePort();
        secrets = new TestSecrets();
        project = new ComposeProject(
                "seckill-ct-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of(
                        "SECKILL_GATEWAY_PUBLISH", Integer.toString(gatewayPort),
                        "SECKILL_KAFKA_PUBLISH", Integer.toString(kafkaPort),
                        "SECKILL_SECRETS_DIR", secrets.dir().toString()));
        project.up(SERVICES.toArray(String[]::new));
    }

    @AfterAll
    static void down() throws IOException {
        try {
            if (project != null) {
                try {
                    project.saveLogs(Path.of("target", "containers", "compose"), SERVICES);
                } finally {
                    project.close();
                }
            }
        } finally {
            if (secrets != null) secrets.close();
        }
    }

    @Test
    @Order(1)
    void givenTheComposeFile_whenUp_thenEveryProbeAndScrapeTargetAnswersFromOutsideItsContainer() throws Exception {
        for (var service : ENDPOINTS.entrySet()) {
            String ip = project.ip(service.getKey());
            assertThat(ip)
                    .as(service.getKey() + "'s address on the project network")
                    .isNotBlank();
            for (var port : service.getValue().entrySet())
                for (String path : port.getValue()) {
                    URI uri = URI.create("http://" + ip + ":" + port.getKey() + path);
                    try {
                        await(service.getKey() + " " + uri)
                                .atMost(Duration.ofMinutes(3))
                                .pollInterval(Duration.ofMillis(500))
                                .ignoreExceptions()
                                .until(() -> get(uri).statusCode() == 200);
                    } catch (ConditionTimeoutException e) {
                        throw new AssertionError(
                                e.getMessage() + "\n" + project.describe(service.getKey()) + "\n"
                                        + project.describe("mariadb") + "\n" + project.describe("kafka"),
                                e);
                    }
                    if (path.equals("/metrics"))
                        assertThat(get(uri).body())
                                .as("%s scraped from outside", uri)
                                .contains("jvm_memory_used_bytes", "process_cpu_usage");
                }
        }
        assertThat(get(URI.create("http://" + project.ip("ingress-gateway") + ":8080/metrics"))
                        .statusCode())
                .as("the gateway's public port serves no metrics")
                .isEqualTo(404);
    }

    @Test
    @Order(2)
    void givenTheImages_whenTheServicesRun_thenTheirOutputIsJsonLinesSaveTheirOneLineErrors() throws Exception {
        for (String service : ENDPOINTS.keySet()) {
            List<String> lines = project.logs(service).lines().toList();
            assertThat(lines).as(service + "'s output").isNotEmpty();
            String program = service.replaceFirst("-[0-9]+$", ""); // stock-stream-2 runs stock-stream
            for (String line : lines) {
                if (line.startsWith(program + ": ")) continue; // a readable one-line error on stderr (Kafka not yet up)
                if (line.equals(ComposeProject.LAUNCHER_NOTE)) continue; // the suite's own JVM flags, announced
                String level;
                try {
                    level = Json.MAPPER.readTree(line).path("level").asText();
                } catch (JsonProcessingException e) {
                    throw new AssertionError(service + ": a line neither JSON nor one-line error: " + line, e);
                }
                assertThat(level).as("%s: a JSON log line: %s", service, line).isNotEmpty();
            }
            assertThat(lines)
                    .as(service + " said it runs, as a JSON line of the console logger")
                    .anyMatch(l -> l.contains("\"loggerName\":\"dev.seckill.console\"")
                            && (l.contains("RUNNING") || l.contains("listening")));
        }
    }

    @Test
    @Order(3)
    void givenTwoStreamInstances_whenTheOneOwningTheSaleIsKilledMidSale_thenTheOtherDecidesItAndNothingIsLost()
            throws Exception {
        Settings s = Settings.with(Map.of(
                Settings.KAFKA_BOOTSTRAP, "127.0.0.1:" + kafkaPort,
                Settings.REDIS_URL, "redis://" + project.ip("redis") + ":6379",
                Settings.DB_URL, "jdbc:mysql://" + project.ip("mariadb") + ":3306/seckill",
                Settings.DB_USER, "seckill",
                Settings.DB_PASSWORD, secrets.get("db-password")));
        Topics topics = new Topics(s.topicPrefix());
        // the stream creates the topics at its start: the sale opens once it runs
        await("the sale opened through the containers")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> {
                    // two units per buyer: 500 buyers can buy all 1,000
                    Sales.open(
                            s,
                            Sales.started(GOODS, STOCK, Duration.ofHours(1), 2, "ct-open-" + GOODS),
                            Duration.ofSeconds(20));
                    return true;
                });
        try (StreamGroup group = new StreamGroup(s);
                OutcomeLog outcomes = new OutcomeLog(s, topics)) {
            await("the stock-stream group stable with both instances")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> group.stableInstances().size() == STREAMS.size());
            StreamFailover failover = new StreamFailover(project, STREAMS, group, outcomes, GOODS);

            Jwt jwt = new Jwt(secrets.get("gateway-auth-secret"), Clock.systemUTC());
            AtomicBoolean killed = new AtomicBoolean();
            AtomicInteger answered = new AtomicInteger();
            // 500 buyers of two units each, every buyer asking twice (the second is a buyer trying again: DUPLICATE)
            Buyers buyers = new Buyers(URI.create("http://127.0.0.1:" + gatewayPort), GOODS, BUYERS, 2, 2, 50, 11);
            Buyers.Result load =
                    buyers.run(user -> "Bearer " + jwt.mint(user, Instant.now().plusSeconds(3600)), done -> {
                        answered.accumulateAndGet(done, Math::max);
                        if (done >= BUYERS / 2 && killed.compareAndSet(false, true))
                            CompletableFuture.runAsync(() -> failover.killOwner(answered::get));
                    });
            failover.done.get(3, TimeUnit.MINUTES);
            System.out.printf(
                    "%s (the owner of the sale's partition) SIGKILLed with %d of %d requests answered; %s decided the"
                            + " first of its purchases %,d ms after the kill%n",
                    failover.killed,
                    failover.answeredAtKill,
                    2 * BUYERS,
                    failover.survivor,
                    failover.firstDecidedAfterMs);
            assertThat(failover.answeredAtKill)
                    .as("requests answered when the SIGKILL landed: the sale went on after it (of " + 2 * BUYERS + ")")
                    .isBetween(1, 2 * BUYERS - 1);
            assertThat(failover.ownerThen)
                    .as("the owner of the sale's partition when its first purchase was decided after the kill")
                    .isEqualTo(failover.survivor);
            assertThat(load.failed()).as("requests without an answer").isZero();
            // a buyer's second purchase sent after the first was decided is answered at the door, at once: DUPLICATE,
            // or SOLD_OUT once the last of the 1,000 units is gone (the sold-out mark comes before the buyer's)
            int door = load.byStatus().getOrDefault(200, 0);
            assertThat(load.atTheDoor().keySet()).as("answered at the door").isSubsetOf("DUPLICATE", "SOLD_OUT");
            assertThat(load.atTheDoor().values().stream()
                            .mapToInt(Integer::intValue)
                            .sum())
                    .as("answered at the door: " + load.atTheDoor())
                    .isEqualTo(door);
            assertThat(load.byStatus())
                    .as("answers by status")
                    .isEqualTo(door == 0 ? Map.of(202, 2 * BUYERS) : Map.of(202, 2 * BUYERS - door, 200, door));
            settled(s, outcomes, load, door);
        }
    }

    /** Every accepted purchase decided, an order for every buyer, the audit's invariants and the per-user limit. */
    private static void settled(Settings s, OutcomeLog outcomes, Buyers.Result load, int door) throws Exception {
        try (Connection db = DriverManager.getConnection(s.dbUrl(), s.dbUser(), s.dbPassword())) {
            await("an outcome for every accepted purchase")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> decided(outcomes.snapshot(), load.acceptedIds())
                            == load.acceptedIds().size());
            await("an order for every buyer, every unit in one")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(count(
                                    db,
                                    "SELECT COUNT(*) * 100000 + COALESCE(SUM(quantity), 0) FROM purchase_order"
                                            + " WHERE goods_id = " + GOODS))
                            .as("orders × 100000 + units in them")
                            .isEqualTo(BUYERS * 100000L + STOCK));
            Map<String, Long> told = outcomes.snapshot().stream()
                    .filter(o -> o.goodsId() == GOODS)
                    .collect(Collectors.groupingBy(o -> o.outcome().name(), Collectors.counting()));
            // a buyer's second purchase the stream decides: DUPLICATE, or SOLD_OUT once every unit is gone
            assertThat(told.keySet()).as("outcomes: " + told).isSubsetOf("SUCCESS", "DUPLICATE", "SOLD_OUT");
            assertThat(told.get("SUCCESS")).as("outcomes: " + told).isEqualTo((long) BUYERS);
            assertThat(told.getOrDefault("DUPLICATE", 0L) + told.getOrDefault("SOLD_OUT", 0L))
                    .as("outcomes (a purchase answered at the door has none): " + told)
                    .isEqualTo((long) BUYERS - door);
            SaleAudit audit =
                    SaleAudit.settled(() -> SaleFacts.ofPipeline(s, db, GOODS).acknowledged(load.acceptedIds()));
            assertThat(audit.violations).as(audit.what()).isEmpty();
            assertThat(count(
                            db,
                            "SELECT COUNT(*) FROM (SELECT user_id FROM purchase_order WHERE goods_id = " + GOODS
                                    + " GROUP BY user_id HAVING COUNT(*) > 1 OR SUM(quantity) > 2) t"))
                    .as("buyers over the per-user limit")
                    .isZero();
        }
    }

    private static long decided(List<Outcome> outcomes, Set<String> accepted) {
        return outcomes.stream()
                .filter(o -> o.goodsId() == GOODS && accepted.contains(o.requestId()))
                .map(Outcome::requestId)
                .collect(Collectors.toSet())
                .size();
    }

    private static long count(Connection db, String sql) throws Exception {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static {
        try {
            Files.createDirectories(Path.of("target", "containers"));
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
