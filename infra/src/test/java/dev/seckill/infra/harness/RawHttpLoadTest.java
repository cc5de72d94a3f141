package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The raw generator against a real HTTP server that answers after a fixed delay: every request arrives once with its
 * body and token, statuses are counted, and the open loop keeps its rate and shows a queue in its percentiles.
 */
@Tag("fast")
class RawHttpLoadTest {
    Vertx vertx;
    HttpServer server;
    final AtomicInteger received = new AtomicInteger();
    final Set<String> tokens = ConcurrentHashMap.newKeySet();
    final Set<String> prefers = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(body -> {
                    int n = received.incrementAndGet();
                    String auth = req.getHeader("Authorization");
                    if (auth != null) tokens.add(auth);
                    String prefer = req.getHeader("Prefer");
                    if (prefer != null) prefers.add(prefer);
                    boolean ok = body.toJsonObject().getLong("goodsId") == 1001
                            && body.toJsonObject().getLong("userId") > 0;
                    // with Prefer: wait, the outcome (200) comes later, and one in five is still PENDING (202) at the
                    // deadline
                    int status = !ok ? 400 : prefer == null ? (n % 10 == 0 ? 429 : 202) : (n % 5 == 0 ? 202 : 200);
                    vertx.setTimer(
                            prefer == null ? 20 : 60,
                            t -> req.response()
                                    .setStatusCode(status)
                                    .putHeader("Content-Type", "application/json")
                                    .end("{\"requestId\":\"r-" + n + "\",\"status\":\"PENDING\"}"));
                }))
                .listen(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopServer() {
        vertx.close();
    }

    @Test
    void theClosedLoopSendsEveryRequestOnceAndCountsStatuses() throws Exception {
        RawHttpLoad.Result r =
                RawHttpLoad.run(server.actualPort(), 1001, 400, 20, 100, 1, u -> "Bearer t" + u, n -> {}, 0);
        assertThat(received.get()).isEqualTo(400);
        assertThat(r.byStatus()).containsEntry(202, 360L).containsEntry(429, 40L);
        assertThat(r.accepted()).isEqualTo(360);
        assertThat(r.errors()).isZero();
        assertThat(tokens).allMatch(t -> t.startsWith("Bearer t")).hasSizeGreaterThan(50);
        assertThat(r.percentileMillis(50, 0)).isGreaterThanOrEqualTo(20.0);
    }

    @Test
    void theOpenLoopKeepsItsRate_andCountsTheWaitForAConnection() throws Exception {
        RawHttpLoad.Result paced = RawHttpLoad.run(server.actualPort(), 1001, 200, 50, 100, 1, null, n -> {}, 400);
        assertThat(paced.byStatus().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(200);
        assertThat(paced.elapsedNanos())
                .as("200 requests at 400/s cannot all have left before 0.5 s")
                .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(450));
        assertThat(paced.percentileMillis(50, 0)).isLessThan(500.0);
        // 4 connections x (1 request / 20 ms) = at most ~200 answers/s, but 1,000/s are due: a queue builds
        RawHttpLoad.Result queued = RawHttpLoad.run(server.actualPort(), 1001, 300, 4, 100, 1, null, n -> {}, 1000);
        assertThat(queued.percentileMillis(99, 0)).isGreaterThan(500.0);
    }

    @Test
    void withAWaitPreference_theLatencyIsTheTimeToTheOutcome_andAPendingAnswerNeverKnew() throws Exception {
        LoadSpec spec = LoadSpec.closed(server.actualPort(), 1001, 200, 10, 100, 1, null)
                .waiting(7);
        RawHttpLoad.Result r = RawHttpLoad.run(spec, n -> {});
        assertThat(prefers).containsExactly("wait=7");
        assertThat(r.byStatus()).containsEntry(200, 160L).containsEntry(202, 40L);
        assertThat(r.answerTimes(0).answered()).isEqualTo(160);
        assertThat(r.answerTimes(0).percentileMillis(50)).isGreaterThanOrEqualTo(60.0);
        assertThat(r.answerTimes(0).percentileMillis(99)).isInfinite();
        assertThat(r.answerTimes(0).shareWithin(1000)).isEqualTo(0.8);
    }
}
