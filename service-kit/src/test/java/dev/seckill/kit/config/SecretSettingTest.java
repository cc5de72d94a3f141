package dev.seckill.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret setting: placeholders and guessable values refused with one line naming the variable; {@code _FILE}. */
@Tag("fast")
class SecretSettingTest {
    static final Setting<String> KEY = Setting.secret("test.key", 128, "a key");
    static final String RANDOM = "3q2+7wAAAAB0ZXN0LWtleS0xMjM0NTY3ODkwYWJjZGVm7b9kQ1x8Zr0pW1VvQ2s="; // openssl-like

    @Test
    void givenThePlaceholderTheExampleFilesShipped_whenRead_thenRefusedNamingTheVariable() {
        Settings s = Settings.with(Map.of("test.key", "change-me-to-32-or-more-random-characters-0001"));
        assertThatThrownBy(() -> s.get(KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SECKILL_TEST_KEY is a placeholder (it contains \"changeme\")")
                .hasMessageNotContaining("\n");
    }

    @Test
    void givenValuesAGuesserTriesEarly_whenRead_thenEachRefusedSayingWhy() {
        Map<String, String> weak = Map.of(
                "short0K9x",
                "is too short (9 characters, 32 needed)",
                "ab".repeat(20),
                "is too guessable (2 distinct characters)",
                "abcd1xyz".repeat(5),
                "is too guessable (it repeats every 8 characters)",
                "Password1234567890!Password1234567890!",
                "is too guessable (it repeats every 19 characters)",
                "abcdefghijklmnopqrstuvwxyz0123456789",
                "is too guessable (it holds a run like",
                "a".repeat(26) + "b1c3d5e7f9",
                "is too guessable (about 64 bits of spread, 88 needed)");
        weak.forEach((value, why) -> assertThatThrownBy(
                        () -> Settings.with(Map.of("test.key", value)).get(KEY))
                .as(value)
                .hasMessageStartingWith("SECKILL_TEST_KEY " + why));
    }

    @Test
    void givenRandomValuesAsOpensslMakesThem_whenRead_thenAcceptedEveryTime() {
        Random random = new Random(20261201); // seeded: the same 2,000 draws every run
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = new byte[16];
            random.nextBytes(bytes);
            String hex = HexFormat.of().formatHex(bytes); // openssl rand -hex 16: 128 bits
            assertThat(SecretValues.weakness(hex, 128)).as(hex).isNull();
            byte[] more = new byte[48];
            random.nextBytes(more);
            String b64 = Base64.getEncoder().encodeToString(more); // openssl rand -base64 48
            assertThat(SecretValues.weakness(b64, 128)).as(b64).isNull();
        }
    }

    @Test
    void givenARandomValue_orNone_whenRead_thenServed() {
        assertThat(Settings.with(Map.of("test.key", RANDOM)).get(KEY)).isEqualTo(RANDOM);
        assertThat(Settings.with(Map.of()).get(KEY)).isEmpty();
    }

    @Test
    void givenTheValueInAFile_whenReadThroughUnderscoreFile_thenTheFilesContentWithoutItsLineBreak(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("key");
        Files.writeString(file, RANDOM + "\n");
        assertThat(Settings.with(Map.of("test.key.file", file.toString())).get(KEY))
                .isEqualTo(RANDOM);
        assertThatThrownBy(() -> Settings.with(
                                Map.of("test.key.file", dir.resolve("missing").toString()))
                        .get(KEY))
                .hasMessageStartingWith("SECKILL_TEST_KEY_FILE: cannot read ");
        assertThatThrownBy(() -> Settings.with(Map.of("test.key", "", "test.key.file", file.toString()))
                        .get(KEY))
                .hasMessage("SECKILL_TEST_KEY and SECKILL_TEST_KEY_FILE are both set: set one");
    }

    @Test
    void givenABadNumber_whenRead_thenTheMessageNamesTheVariable() {
        Setting<Integer> port = Setting.integer("test.port", 1, "a port");
        assertThatThrownBy(() -> Settings.with(Map.of("test.port", "lots")).get(port))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SECKILL_TEST_PORT: ");
    }

    @Test
    void aSecretOfZeroBitsStillRefusesPlaceholders() {
        Setting<String> password = Setting.secret("test.password", 0, "a password");
        assertThat(Settings.with(Map.of("test.password", "hunter2")).get(password))
                .isEqualTo("hunter2");
        assertThatThrownBy(() ->
                        Settings.with(Map.of("test.password", "change-me")).get(password))
                .hasMessageContaining("placeholder");
    }
}
