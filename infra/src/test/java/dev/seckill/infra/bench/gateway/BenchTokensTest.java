package dev.seckill.infra.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.auth.TokenKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code bench gateway}'s rs256 tokens verify against the JWKS file it gives the gateway, which it deletes after. */
@Tag("fast")
class BenchTokensTest {
    @Test
    void rs256TokensVerifyOnTheRunsJwks() throws Exception {
        Path jwks;
        try (BenchTokens tokens = BenchTokens.of("rs256")) {
            jwks = Path.of(tokens.gatewaySettings().get(GatewaySettings.AUTH_JWKS.name()));
            tokens.prepare(100, 3);
            try (Jwt gateway = new Jwt(
                    TokenKeys.jwks(jwks.toString(), Duration.ofMinutes(5), "RS256,ES256"),
                    Clock.systemUTC(),
                    Jwt.Policy.DEFAULT)) {
                for (long user = 100; user < 103; user++) {
                    String bearer = tokens.bearer().apply(user);
                    assertThat(gateway.verify(bearer.substring("Bearer ".length())))
                            .isEqualTo(user);
                }
            }
        }
        assertThat(Files.exists(jwks)).isFalse();
    }
}
