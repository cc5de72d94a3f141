package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.kit.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code load --via http --signing-key FILE} with a key that cannot sign the gateway's tokens stops with exit 2 and one
 * line naming the flag, before a request is sent (the URL is one nothing listens on).
 */
@Tag("fast")
class LoadSigningKeyTest {
    record Run(int exit, String out, String err) {}

    @TempDir
    Path dir;

    static Run load(String... flags) {
        String[] args = new String[flags.length + 5];
        System.arraycopy(new String[] {"load", "--via", "http", "--url", "http://127.0.0.1:9"}, 0, args, 0, 5);
        System.arraycopy(flags, 0, args, 5, flags.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int exit = Seckill.run(Settings.with(Map.of()), args, new PrintStream(out, true, StandardCharsets.UTF_8));
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
    }

    static void assertOneLine(Run run, String line) {
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.out()).as("nothing sent").isEmpty();
        assertThat(run.err()).isEqualTo("seckill: " + line + "\n");
    }

    @Test
    void aPublicOnlyKey_aKeyWithoutKid_andAMissingFile_areOneLineNamingTheFlag() throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        Path publicOnly =
                Files.writeString(dir.resolve("public.json"), ec.toPublicJWK().toJSONString());
        Path noKid = Files.writeString(
                dir.resolve("nokid.json"),
                new ECKey.Builder(ec).keyID(null).build().toJSONString());
        Path missing = dir.resolve("missing.json");

        assertOneLine(
                load("--signing-key", publicOnly.toString()),
                "--signing-key: the key is public only: it cannot sign tokens");
        assertOneLine(
                load("--signing-key", noKid.toString()),
                "--signing-key: the key has no kid (the gateway chooses a token's key by it)");
        assertOneLine(load("--signing-key", missing.toString()), "--signing-key: no file " + missing);
    }

    @Test
    void theSigningKeyIsForHttpOnly() {
        assertOneLine(load("--via", "kafka", "--signing-key", "idp.json"), "--signing-key is for --via http");
    }

    @Test
    void anUnsupportedKeyIsNamedWithTheTypesThatSign() throws Exception {
        Path okp = Files.writeString( // RFC 8037's Ed25519 example key
                dir.resolve("okp.json"),
                "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"ed-1\","
                        + "\"d\":\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\","
                        + "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}");
        assertOneLine(
                load("--signing-key", okp.toString()),
                "--signing-key: unsupported key type OKP (an RSA key signs RS256, an EC P-256 key ES256)");
    }
}
