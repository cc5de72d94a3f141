package dev.seckill.kit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.kit.config.Settings;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisClientConfig;

/** How the Redis settings and the URL make one client configuration (the servers: SecureStoresPipelineTest). */
class RedisConnectionsTest {

    @Test
    void givenAUserAndPasswordInSettings_thenTheClientAuthenticatesAsThatUser() {
        Settings s = Settings.with(Map.of("redis.user", "seckill-gateway", "redis.password", "s3cr3t-Value-9"));
        JedisClientConfig c = RedisConnections.config(s, URI.create("redis://10.0.0.5:6379/2"), "SECKILL_REDIS_URL");
        assertThat(c.getUser()).isEqualTo("seckill-gateway");
        assertThat(c.getPassword()).isEqualTo("s3cr3t-Value-9");
        assertThat(c.getDatabase()).isEqualTo(2);
        assertThat(c.isSsl()).isFalse();
    }

    @Test
    void givenARedissUrl_thenTls_andCredentialsInTheUrlAreUsed() {
        JedisClientConfig c = RedisConnections.config(
                Settings.with(Map.of()), URI.create("rediss://app:pw-123@redis.internal:6380"), "SECKILL_REDIS_URL");
        assertThat(c.isSsl()).isTrue();
        assertThat(c.getUser()).isEqualTo("app");
        assertThat(c.getPassword()).isEqualTo("pw-123");
    }

    @Test
    void givenCredentialsInTheUrlAndInSettings_thenOneLineSaysToSetOne() {
        Settings s = Settings.with(Map.of("redis.password", "s3cr3t-Value-9"));
        assertThatThrownBy(() ->
                        RedisConnections.config(s, URI.create("redis://:other@127.0.0.1:6379"), "SECKILL_REDIS_URL"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "SECKILL_REDIS_URL holds credentials and SECKILL_REDIS_USER or SECKILL_REDIS_PASSWORD is set"
                                + " too: set one of them");
    }

    @Test
    void givenAPlaceholderPassword_thenItIsRefusedNamingTheVariable() {
        Settings s = Settings.with(Map.of("redis.password", "change-me"));
        assertThatThrownBy(() -> RedisConnections.config(s, URI.create("redis://127.0.0.1:6379"), "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SECKILL_REDIS_PASSWORD");
    }

    @Test
    void givenATruststoreThatCannotBeRead_thenOneLineNamesIt() {
        Settings s = Settings.with(Map.of("redis.tls", "true", "redis.tls.truststore", "/nonexistent/ca.p12"));
        assertThatThrownBy(() -> RedisConnections.config(s, null, "SECKILL_REDIS_CLUSTER"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SECKILL_REDIS_TLS_TRUSTSTORE: cannot read /nonexistent/ca.p12");
    }

    @Test
    void aUrlThatIsNotOneIsOneLineNamingTheVariable_withoutItsPassword() {
        assertThatThrownBy(() -> RedisConnections.openUrl(
                        Settings.with(Map.of()), "redis://u:pa#ss@host:6379", "SECKILL_GATEWAY_STATUS_REDIS_URL"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SECKILL_GATEWAY_STATUS_REDIS_URL is not a Redis URL")
                .hasMessageNotContaining("pa#ss");
    }

    @Test
    void aSecretReadFromAFileIsPassedOnAsTheFile_notItsValue() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("redis-password", "");
        java.nio.file.Files.writeString(file, "s3cr3t-Value-9\n");
        Settings s = Settings.with(Map.of("redis.user", "gw", "redis.password.file", file.toString()));
        assertThat(s.get(dev.seckill.kit.config.RedisSettings.PASSWORD)).isEqualTo("s3cr3t-Value-9");
        assertThat(dev.seckill.kit.config.RedisSettings.environment(s))
                .containsEntry("SECKILL_REDIS_USER", "gw")
                .containsEntry("SECKILL_REDIS_PASSWORD_FILE", file.toString())
                .doesNotContainKey("SECKILL_REDIS_PASSWORD");
        java.nio.file.Files.delete(file);
    }
}
