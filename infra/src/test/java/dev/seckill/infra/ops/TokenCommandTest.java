package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.auth.Jwt;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.stack.ServiceStack;
import dev.seckill.kit.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./seckill token}: a token the gateway takes for that buyer, signed with the secret it finds; none, one line. */
@Tag("fast")
class TokenCommandTest {
    static final String SECRET = "Qx7kP2vR9mWz4LtN8cYb3HdJ6sFg1AeU5rKo0TiV";

    @Test
    void givenTheSecretTheStackMade_thenTheTokenIsThatBuyersForTheGateway(@TempDir Path home) throws Exception {
        Path file = ServiceStack.gatewaySecretFile(home);
        Files.createDirectories(file.getParent());
        Files.writeString(file, SECRET + "\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int exit = TokenCommand.run(
                Settings.with(Map.of()),
                home,
                CliCommands.TOKEN.parse(new String[] {"token", "--user", "7"}),
                new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(exit).isZero();
        String token = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(new Jwt(SECRET, Clock.systemUTC()).verify(token)).isEqualTo(7);
    }

    @Test
    void withNoKeyAnywhere_itIsAUsageErrorNamingTheWaysToGetOne(@TempDir Path home) {
        assertThatThrownBy(() -> TokenCommand.run(
                        Settings.with(Map.of()),
                        home,
                        CliCommands.TOKEN.parse(new String[] {"token", "--user", "7"}),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessageContaining(GatewaySettings.AUTH_SECRET.env())
                .hasMessageContaining("--signing-key");
    }
}
