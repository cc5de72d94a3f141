package dev.seckill.infra.harness;

import java.time.Duration;
import java.util.function.LongFunction;

/**
 * One run of the raw load generator: who is hit with what, at which pace.
 *
 * @param bearerOf        the Authorization header value for a buyer, or null when auth is off
 * @param rate            0 for a closed loop, else requests per second offered (open loop)
 * @param jitQuiet        how long to wait, before the clock starts, for the JIT to finish what it has queued
 * @param requestIdPrefix when not null, request i carries the client requestId {@code requestIdPrefix + i}
 * @param waitSeconds     0 for none; else every request carries {@code Prefer: wait=N} and its latency is its time to
 *                        answer (a 200 with the outcome) rather than to the 202
 */
public record LoadSpec(
        int port,
        long goodsId,
        int requests,
        int connections,
        long firstUser,
        int users,
        long seed,
        LongFunction<String> bearerOf,
        double rate,
        Duration jitQuiet,
        String requestIdPrefix,
        int waitSeconds) {

    /** A closed loop of buyers {@code 1..users}, no JIT wait, no client ids, no wait preference. */
    public static LoadSpec closed(
            int port,
            long goodsId,
            int requests,
            int connections,
            int users,
            long seed,
            LongFunction<String> bearerOf) {
        return new LoadSpec(port, goodsId, requests, connections, 1, users, seed, bearerOf, 0, Duration.ZERO, null, 0);
    }

    public LoadSpec atRate(double perSecond) {
        return new LoadSpec(
                port,
                goodsId,
                requests,
                connections,
                firstUser,
                users,
                seed,
                bearerOf,
                perSecond,
                jitQuiet,
                requestIdPrefix,
                waitSeconds);
    }

    public LoadSpec waiting(int seconds) {
        return new LoadSpec(
                port,
                goodsId,
                requests,
                connections,
                firstUser,
                users,
                seed,
                bearerOf,
                rate,
                jitQuiet,
                requestIdPrefix,
                seconds);
    }

    public LoadSpec buyers(long first, int count) {
        return new LoadSpec(
                port,
                goodsId,
                requests,
                connections,
                first,
                count,
                seed,
                bearerOf,
                rate,
                jitQuiet,
                requestIdPrefix,
                waitSeconds);
    }

    public LoadSpec quietJit(Duration upTo) {
        return new LoadSpec(
                port,
                goodsId,
                requests,
                connections,
                firstUser,
                users,
                seed,
                bearerOf,
                rate,
                upTo,
                requestIdPrefix,
                waitSeconds);
    }

    public LoadSpec withRequestIds(String prefix) {
        return new LoadSpec(
                port,
                goodsId,
                requests,
                connections,
                firstUser,
                users,
                seed,
                bearerOf,
                rate,
                jitQuiet,
                prefix,
                waitSeconds);
    }
}
