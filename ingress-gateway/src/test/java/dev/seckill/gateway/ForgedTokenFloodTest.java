package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.gateway.auth.IdentityProvider;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client flooding the gateway with forged tokens (each a different one, each an RSA signature check) over real
 * HTTP: its address's budget of refused tokens is spent within a handful of 401s, after which its new tokens are
 * answered 429 with Retry-After and cost no signature check; a token it sent before is still refused by name (from
 * memory); tokens that verify never spend a budget; and buyers — from other addresses, or from the flooder's address
 * with a token verified before — are served throughout.
 */
class ForgedTokenFloodTest {
    static final String ADDRESS_HEADER = "X-Forwarded-For";
    static final IdentityProvider idp = new IdentityProvider();
    static final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    static final AtomicLong users = new AtomicLong(90_000);
    static GatewayApp gateway;
    static Settings settings;
    static Path jwks;

    @BeforeAll
    static void start() throws Exception {
        idp.rsa("live").rsa("thief");
        jwks = Files.createTempDirectory("jwks-").resolve("jwks.json");
        idp.publish(jwks, "live");
        String prefix = "forged-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        settings = Settings.with(Map.ofEntries(
                Map.entry(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap()),
                Map.entry(Settings.TOPIC_PREFIX, prefix),
                Map.entry(Settings.REDIS_PREFIX, prefix.replace('.', ':')),
                Map.entry("gateway.port", "0"),
                Map.entry("gateway.metrics.port", "0"),
                Map.entry("gateway.auth.jwks", jwks.toString()),
                Map.entry("gateway.auth.issuer", IdentityProvider.ISSUER),
                Map.entry("gateway.auth.audience", IdentityProvider.AUDIENCE),
                Map.entry("gateway.client.address.header", ADDRESS_HEADER),
                Map.entry("gateway.limit.refused.tokens.per.second", "1"),
                Map.entry("gateway.limit.refused.tokens.burst", "4")));
        gateway = TestGateways.started(settings, metrics);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) gateway.close();
        if (jwks != null) Files.deleteIfExists(jwks);
        if (settings != null) TestGateways.removeNamespace(settings);
    }

    static HttpResponse<String> buy(String address, String token) throws Exception {
        return GatewayTest.post(
                gateway.port(),
                "{\"goodsId\":4343,\"requestId\":\"ftf-" + UUID.randomUUID() + "\"}",
                ADDRESS_HEADER,
                address,
                "Authorization",
                "Bearer " + token);
    }

    static String forged() throws Exception {
        long user = users.incrementAndGet();
        Instant now = Instant.now();
        return idp.sign("thief", "live", IdentityProvider.claims(user, now, now.plusSeconds(3600)));
    }

    static double verifications() {
        return metrics.get("seckill_gateway_token_verifications")
                .functionCounter()
                .count();
    }

    @Test
    void aForgedTokenFloodIsCutOffByItsAddressBudget_andHonestBuyersAreServed() throws Exception {
        String flooder = "192.0.2.66";
        String keeper = idp.token("live", users.incrementAndGet());
        assertThat(buy(flooder, keeper).statusCode())
                .as("a buyer behind the flooder's address, verified before")
                .isEqualTo(202);

        double before = verifications();
        List<String> sent = new ArrayList<>();
        int refused = 0;
        HttpResponse<String> limited = null;
        for (int i = 0; i < 40 && limited == null; i++) {
            String token = forged();
            sent.add(token);
            HttpResponse<String> r = buy(flooder, token);
            if (r.statusCode() == 429) limited = r;
            else {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
                assertThat(r.body()).contains("bad token signature");
                refused++;
            }
        }
        assertThat(limited).as("the flood is cut off").isNotNull();
        assertThat(refused).as("within the burst and what refilled meanwhile").isBetween(4, 20);
        assertThat(limited.body()).contains("refused tokens per address");
        assertThat(limited.headers().firstValue("Retry-After")).isPresent();
        assertThat(verifications() - before)
                .as("a signature check per 401, none for the 429")
                .isEqualTo(refused);

        HttpResponse<String> read = StatusReadsTest.get(
                gateway, "/api/purchases/ftf-unknown", ADDRESS_HEADER, flooder, "Authorization", "Bearer " + forged());
        assertThat(read.statusCode())
                .as("a status read with a new forged token: the same budget")
                .isEqualTo(429);
        double cut = verifications();
        HttpResponse<String> again = buy(flooder, sent.get(0));
        assertThat(again.statusCode())
                .as("a token refused before: from memory, budget or not")
                .isEqualTo(401);
        assertThat(again.body()).contains("bad token signature");
        assertThat(buy(flooder, keeper).statusCode())
                .as("the verified buyer behind that address")
                .isEqualTo(202);
        assertThat(buy("192.0.2.7", idp.token("live", users.incrementAndGet())).statusCode())
                .as("a new buyer elsewhere")
                .isEqualTo(202);
        assertThat(verifications() - cut)
                .as("only the new buyer's token was checked")
                .isEqualTo(1);
    }

    @Test
    void tokensThatVerifyNeverSpendTheBudget() throws Exception {
        String busyAddress = "192.0.2.8"; // many buyers behind one address (a campus, a carrier's NAT)
        for (int i = 0; i < 15; i++)
            assertThat(buy(busyAddress, idp.token("live", users.incrementAndGet()))
                            .statusCode())
                    .as("buyer " + i)
                    .isEqualTo(202);
    }
}
