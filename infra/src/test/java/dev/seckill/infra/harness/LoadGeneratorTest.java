package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's load generator against a real HTTP server that answers 202 after a fixed delay: the closed loop
 * sends every request once, and the open loop counts the time a due request waits for a connection (no coordinated
 * omission), so an overloaded server shows its queue in the percentiles.
 */
@Tag("fast")
class LoadGeneratorTest {
    Vertx vertx;
    HttpServer server;
    final AtomicInteger received = new AtomicInteger();

    @BeforeEach
    void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(body -> {
                    int n = received.incrementAndGet();
                    vertx.setTimer(
                            20,
                            t -> req.response()
                                    .setStatusCode(202)
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
    void theClosedLoopSendsEveryRequestOnceAndCollectsTheAcceptedIds() {
        LoadGenerator.Result r =
                LoadGenerator.run(server.actualPort(), 1001, 400, 20, 100, 1, u -> "Bearer t" + u, n -> {});
        assertThat(received.get()).isEqualTo(400);
        assertThat(r.byStatus()).containsEntry(202, 400L);
        assertThat(r.acceptedIds()).hasSize(400);
        assertThat(r.percentileMillis(50)).isGreaterThanOrEqualTo(20.0);
    }

    @Test
    void theOpenLoopCountsTheWaitForAConnection() {
        // 4 connections x (1 request / 20 ms) = at most ~200 answers/s, but 1,000/s are due: a queue builds
        LoadGenerator.Result r = LoadGenerator.run(server.actualPort(), 1001, 300, 4, 100, 1, null, n -> {}, 1000);
        assertThat(r.acceptedIds()).hasSize(300);
        // the last requests were due after ~0.3 s but answered after ~1.5 s: their latency shows the wait
        assertThat(r.percentileMillis(99)).isGreaterThan(500.0);
        assertThat(r.elapsedNanos()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1000));
    }

    @Test
    void theOpenLoopKeepsToItsRateWhenTheServerKeepsUp() {
        LoadGenerator.Result r = LoadGenerator.run(server.actualPort(), 1001, 200, 50, 100, 1, null, n -> {}, 400);
        assertThat(r.acceptedIds()).hasSize(200);
        // 200 requests at 400/s cannot all have left before 0.5 s
        assertThat(r.elapsedNanos()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(450));
        assertThat(r.percentileMillis(50)).isLessThan(500.0);
    }
}
