package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stack.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/** {@code CLIENT PAUSE ... ALL} on a redis-server of a test's own: every client's next command waits out the pause. */
final class RedisPause {
    private RedisPause() {}

    static void pause(RedisServer server, Duration pause) {
        try (RedisClient pauser = RedisClient.create("127.0.0.1", server.port())) {
            Object answer =
                    pauser.sendCommand(Protocol.Command.CLIENT, "PAUSE", Long.toString(pause.toMillis()), "ALL");
            assertThat(answer instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : answer)
                    .isEqualTo("OK");
        }
    }
}
