package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.gateway.auth.IdentityProvider;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A key rotation at the identity provider in the middle of a sale, through the real gateway over HTTP with a real
 * broker: tokens are minted by jose4j ({@link IdentityProvider}), the gateway reads the provider's JWKS file. While
 * old and new keys are both published, buyers with tokens of either are served (none refused, while purchases keep
 * coming); once the old key is withdrawn its tokens are refused after the refresh, and a key never published is
 * refused throughout.
 */
class GatewayJwksRotationTest {
    static final IdentityProvider idp = new IdentityProvider();
    static GatewayApp gateway;
    static String prefix;
    static Settings settings;
    static Path jwks;
    static final AtomicLong users = new AtomicLong(70_000);

    @BeforeAll
    static void start() throws Exception {
        idp.rsa("2026-old").ec("2026-new").rsa("stolen");
        jwks = Files.createTempDirectory("jwks-").resolve("jwks.json");
        idp.publish(jwks, "2026-old");
        prefix = "jwks-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Settings s = Settings.with(Map.ofEntries(
                Map.entry(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()),
                Map.entry(Settings.TOPIC_PREFIX, prefix),
                Map.entry(Settings.REDIS_PREFIX, prefix.replace('.', ':')),
                Map.entry("gateway.port", "0"),
                Map.entry("gateway.metrics.port", "0"),
                Map.entry("gateway.auth.enabled", "true"),
                Map.entry("gateway.auth.jwks", jwks.toString()),
                Map.entry("gateway.auth.jwks.refresh.seconds", "2"),
                Map.entry("gateway.auth.issuer", IdentityProvider.ISSUER),
                Map.entry("gateway.auth.audience", IdentityProvider.AUDIENCE)));
        settings = s;
        gateway = TestGateways.started(s);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) gateway.close();
        Files.deleteIfExists(jwks);
        if (settings != null) TestGateways.removeNamespace(settings);
    }

    /** A purchase by a new buyer holding a token of {@code kid}: its status and body, and the buyer. */
    record Sent(String kid, long user, String requestId, int status, String body) {}

    static Sent buy(String kid) throws Exception {
        long user = users.incrementAndGet();
        return buy(kid, user, idp.token(kid, user));
    }

    static Sent buy(String kid, long user, String token) throws Exception {
        String requestId = "rot-" + kid + "-" + user + "-" + UUID.randomUUID();
        HttpResponse<String> r = GatewayTest.post(
                gateway.port(),
                "{\"goodsId\":4242,\"requestId\":\"" + requestId + "\"}",
                "Authorization",
                "Bearer " + token);
        return new Sent(kid, user, requestId, r.statusCode(), r.body());
    }

    @Test
    void buyersOfTheOldAndTheNewKeyAreBothServedDuringARotation_andAThirdKeyNever() throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < 10; i++) sent.add(buy("2026-old"));
        long keeper = users.incrementAndGet();
        String kept = idp.token("2026-old", keeper); // a buyer who keeps their token: verified once, then cached
        sent.add(buy("2026-old", keeper, kept));

        // mid-sale: buyers with old-key tokens keep coming while the provider publishes the new key and starts using it
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean rotating = new AtomicBoolean(true);
        try {
            Future<List<Sent>> meanwhile = pool.submit(() -> {
                List<Sent> old = new ArrayList<>();
                while (rotating.get() || old.size() < 20) old.add(buy("2026-old"));
                return old;
            });
            idp.publish(jwks, "2026-old", "2026-new");
            for (int i = 0; i < 20; i++) sent.add(buy(i % 2 == 0 ? "2026-new" : "2026-old"));
            sent.add(buy("2026-old", keeper, kept));
            rotating.set(false);
            sent.addAll(meanwhile.get());
        } finally {
            pool.shutdownNow();
        }
        assertThat(sent)
                .as("during the rotation nobody is refused")
                .allSatisfy(s -> assertThat(s.status()).as(s.toString()).isEqualTo(202));
        assertThat(sent.stream().map(Sent::kid).collect(Collectors.toSet())).contains("2026-old", "2026-new");
        Sent stolen = buy("stolen");
        assertThat(stolen.status()).as("a key never published").isEqualTo(401);
        assertThat(stolen.body()).contains("token signing key is not known");

        // the old key withdrawn: its tokens are refused once the gateway has read the set again
        idp.publish(jwks, "2026-new");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Sent old = buy("2026-old");
            assertThat(old.status()).isEqualTo(401);
            assertThat(old.body()).contains("token signing key is not known");
        });
        Sent keptAfter = buy("2026-old", keeper, kept);
        assertThat(keptAfter.status())
                .as("a cached token of the withdrawn key too")
                .isEqualTo(401);
        assertThat(keptAfter.body()).contains("token signing key is not known");
        assertThat(buy("2026-new").status()).isEqualTo(202);
        assertThat(buy("stolen").status()).isEqualTo(401);

        // every purchase served went to the stream as its buyer's, by the token's subject
        Set<String> served =
                sent.stream().map(s -> s.requestId() + "=" + s.user()).collect(Collectors.toSet());
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(purchasesSent()).containsAll(served));
    }

    static Set<String> purchasesSent() {
        return GatewayTest.commandsIn(KafkaFixture.bootstrap(), new Topics(prefix).commands()).stream()
                .map(c -> CommandCodec.decode(c.value()))
                .filter(p -> p instanceof ParsedCommand.Valid)
                .map(p -> (Purchase) ((ParsedCommand.Valid) p).command())
                .map(p -> p.requestId() + "=" + p.userId())
                .collect(Collectors.toSet());
    }
}
