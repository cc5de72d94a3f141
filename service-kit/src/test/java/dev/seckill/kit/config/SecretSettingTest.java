package dev.seckill.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret setting: placeholders and guessable values refused with one line naming the variable; {@code _FILE}. */
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
    void givenALongButRepetitiveValue_whenRead_thenRefusedAsGuessable() {
        Settings s = Settings.with(Map.of("test.key", "abababababababababababababababababababab"));
        assertThatThrownBy(() -> s.get(KEY))
                .hasMessageStartingWith("SECKILL_TEST_KEY is too guessable (about 40 bits of randomness, 128 needed)");
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
