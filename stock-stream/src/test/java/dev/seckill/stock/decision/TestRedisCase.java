package dev.seckill.stock.decision;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A decision test against the machine's real Redis, under a key prefix of its own, with a sale window started a minute ago. */
abstract class TestRedisCase {
    final Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
    TestRedis redis;

    @BeforeEach
    void openRedis() {
        redis = new TestRedis();
    }

    @AfterEach
    void closeRedis() {
        redis.close();
    }
}
