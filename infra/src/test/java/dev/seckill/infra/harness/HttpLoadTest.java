package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The load generator, through each of its clients, against a real HTTP server that answers after a fixed delay: every
 * request arrives once with its body and token, statuses are counted and the accepted ids kept, and the open loop keeps
 * its rate and counts the time a due request waits for a connection (no coordinated omission), so an overloaded
 * server shows its queue in the percentiles.
 */
@Tag("fast")
class HttpLoadTest {
    Vertx vertx;
    HttpServer server;
    final AtomicInteger received = new AtomicInteger();
    final Set<String> tokens = ConcurrentHashMap.newKeySet();
    final Set<String> prefers = ConcurrentHashMap.newKeySet();
    final Queue<JsonObject> bodies = new ConcurrentLinkedQueue<>();

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
                    bodies.add(body.toJsonObject());
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

    LoadSpec spec(int requests, int connections, LongFunction<String> bearerOf, LoadSpec.Generator g) {
        return LoadSpec.closed(server.actualPort(), 1001, requests, connections, 100, 1, bearerOf)
                .via(g);
    }

    @ParameterizedTest
    @EnumSource(LoadSpec.Generator.class)
    void theClosedLoopSendsEveryRequestOnceCountsStatusesAndKeepsTheAcceptedIds(LoadSpec.Generator g) throws Exception {
        AtomicInteger progress = new AtomicInteger();
        HttpLoad.Result r = HttpLoad.run(spec(400, 20, u -> "Bearer t" + u, g).keepingIds(), progress::set);
        assertThat(received.get()).isEqualTo(400);
        assertThat(r.byStatus()).containsEntry(202, 360L).containsEntry(429, 40L);
        assertThat(r.accepted()).isEqualTo(360);
        assertThat(r.acceptedIds()).hasSize(360).allMatch(id -> id.startsWith("r-"));
        assertThat(r.errors()).isZero();
        assertThat(progress.get()).isEqualTo(400);
        assertThat(tokens).allMatch(t -> t.startsWith("Bearer t")).hasSizeGreaterThan(50);
        assertThat(r.percentileMillis(50)).isGreaterThanOrEqualTo(20.0);
    }

    @ParameterizedTest
    @EnumSource(LoadSpec.Generator.class)
    void theOpenLoopKeepsItsRate_andCountsTheWaitForAConnection(LoadSpec.Generator g) throws Exception {
        HttpLoad.Result paced = HttpLoad.run(spec(200, 50, null, g).atRate(400), n -> {});
        assertThat(paced.byStatus().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(200);
        assertThat(paced.acceptedIds()).as("ids are kept only when asked").isEmpty();
        assertThat(paced.elapsedNanos())
                .as("200 requests at 400/s cannot all have left before 0.5 s")
                .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(450));
        assertThat(paced.percentileMillis(50, 0)).isLessThan(500.0);
        // 4 connections x (1 request / 20 ms) = at most ~200 answers/s, but 1,000/s are due: a queue builds
        HttpLoad.Result queued = HttpLoad.run(spec(300, 4, null, g).atRate(1000), n -> {});
        // the last requests were due after ~0.3 s but answered after ~1.5 s: their latency shows the wait
        assertThat(queued.percentileMillis(99, 0)).isGreaterThan(500.0);
        assertThat(queued.elapsedNanos()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1000));
    }

    @ParameterizedTest
    @EnumSource(LoadSpec.Generator.class)
    void withAWaitPreference_theLatencyIsTheTimeToTheOutcome_andAPendingAnswerNeverKnew(LoadSpec.Generator g)
            throws Exception {
        HttpLoad.Result r = HttpLoad.run(spec(200, 10, null, g).waiting(7), n -> {});
        assertThat(prefers).containsExactly("wait=7");
        assertThat(r.byStatus()).containsEntry(200, 160L).containsEntry(202, 40L);
        assertThat(r.answerTimes(0).answered()).isEqualTo(160);
        assertThat(r.answerTimes(0).percentileMillis(50)).isGreaterThanOrEqualTo(60.0);
        assertThat(r.answerTimes(0).percentileMillis(99)).isInfinite();
        assertThat(r.answerTimes(0).shareWithin(1000)).isEqualTo(0.8);
    }

    @ParameterizedTest
    @EnumSource(LoadSpec.Generator.class)
    void clientRequestIdsAndABuyerRangeAreSentAsAsked(LoadSpec.Generator g) throws Exception {
        HttpLoad.Result r =
                HttpLoad.run(spec(50, 5, null, g).withRequestIds("t-").buyers(1_000_000, 10), n -> {});
        assertThat(r.requests()).isEqualTo(50);
        assertThat(bodies).hasSize(50);
        assertThat(bodies)
                .allMatch(b -> b.getString("requestId").startsWith("t-")
                        && b.getLong("userId") >= 1_000_000
                        && b.getLong("userId") < 1_000_010);
    }
}
