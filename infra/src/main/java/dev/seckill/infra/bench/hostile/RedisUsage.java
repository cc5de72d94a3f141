package dev.seckill.infra.bench.hostile;

import redis.clients.jedis.Jedis;

/**
 * A Redis server's footprint at one moment: {@code INFO memory}'s {@code used_memory} (bytes) and {@code DBSIZE}
 * (keys). Read from a server the run owns, so that nothing else writes to it.
 */
record RedisUsage(long usedMemory, long keys) {

    static RedisUsage of(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            return new RedisUsage(field(j.info("memory"), "used_memory"), j.dbSize());
        }
    }

    /**
     * The footprint once the pipeline stopped writing: the key count unchanged for two seconds (a minute at most) —
     * purchases still in Kafka when the load stopped are decided (and their keys written) after it.
     */
    static RedisUsage settled(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        RedisUsage last = of(port);
        int still = 0;
        while (still < 4 && System.nanoTime() < deadline) {
            Thread.sleep(500);
            RedisUsage now = of(port);
            still = now.keys() == last.keys() ? still + 1 : 0;
            last = now;
        }
        return last;
    }

    RedisUsage minus(RedisUsage before) {
        return new RedisUsage(usedMemory - before.usedMemory, keys - before.keys);
    }

    private static long field(String info, String name) {
        for (String line : info.split("\r?\n"))
            if (line.startsWith(name + ":"))
                return Long.parseLong(line.substring(name.length() + 1).trim());
        throw new IllegalStateException("INFO memory has no " + name);
    }
}
