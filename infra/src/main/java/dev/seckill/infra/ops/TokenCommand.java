package dev.seckill.infra.ops;

import dev.seckill.gateway.GatewaySettings;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.stack.ServiceStack;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * {@code ./seckill token --user N}: one buyer's token, valid for an hour, printed alone (for {@code TOKEN=$(...)} in a
 * shell): signed as {@code load} signs them — the identity provider's private JWK of {@code --signing-key}, else HS256
 * with {@code SECKILL_GATEWAY_AUTH_SECRET}, else with the secret {@code ./seckill run} made for the stack's gateway.
 */
public final class TokenCommand {
    private TokenCommand() {}

    public static int run(Settings settings, Path home, Flags f, PrintStream out) throws IOException {
        long user = f.getLong("user"); // required: a positive number, or a usage error naming --user
        Settings signing = settings;
        Path made = ServiceStack.gatewaySecretFile(home);
        if (!f.has("signing-key") && settings.get(GatewaySettings.AUTH_SECRET).isEmpty() && Files.exists(made))
            signing = settings.and(Map.of(
                    GatewaySettings.AUTH_SECRET.name(), Files.readString(made).strip()));
        LongFunction<String> tokens = LoadCommand.tokens(signing, f);
        if (tokens == null)
            throw new Flags.UsageError("no key to sign with: set " + GatewaySettings.AUTH_SECRET.env()
                    + ", start the services with ./seckill run (it makes one), or give --signing-key FILE");
        out.println(tokens.apply(user));
        return 0;
    }
}
