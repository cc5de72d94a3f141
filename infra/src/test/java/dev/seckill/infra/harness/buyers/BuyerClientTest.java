package dev.seckill.infra.harness.buyers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.harness.PurchaseHttp;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one buyer client against a scripted HTTP server on loopback: each reply's meaning under a policy — followed,
 * sent again (under which id, after which pause), or the answer.
 */
@Tag("fast")
class BuyerClientTest {
    /** A reply the script gives: status, Retry-After seconds (0: none), JSON body. */
    private record Scripted(int status, int retryAfter, JsonObject body) {}

    /** One request the server saw: method, path, body, authorization and prefer headers. */
    private record Seen(String method, String path, JsonObject body, String bearer, String prefer) {}

    private final Vertx vertx = Vertx.vertx();
    private final Queue<Seen> seen = new ConcurrentLinkedQueue<>();
    private HttpServer server;
    /** Set by the test's thread, read on the server's event loop. */
    private volatile Function<Seen, Scripted> script;

    /** What went wrong on the server's side (a body not read, a script that threw), for a failure's message. */
    private final Queue<String> serverTrouble = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(this::answer)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private void answer(HttpServerRequest req) {
        req.body()
                .onFailure(e -> serverTrouble.add(req.method() + " " + req.path() + ": body not read: " + e))
                .onSuccess(b -> {
                    Seen s = new Seen(
                            req.method().name(),
                            req.path(),
                            b.length() == 0 ? new JsonObject() : b.toJsonObject(),
                            req.getHeader("authorization"),
                            req.getHeader("prefer"));
                    seen.add(s);
                    Scripted r;
                    try {
                        r = script.apply(s);
                    } catch (RuntimeException e) {
                        serverTrouble.add(s + ": the script threw " + e);
                        throw e;
                    }
                    if (r == null) return; // no reply, ever
                    if (r.retryAfter() > 0) req.response().putHeader("Retry-After", Integer.toString(r.retryAfter()));
                    req.response()
                            .setStatusCode(r.status())
                            .end(r.body().encode())
                            .onFailure(e -> serverTrouble.add(s + ": reply not sent: " + e));
                });
    }

    private FinalAnswer buy(RetryPolicy policy, String requestId, String bearer) {
        return buy(policy, server.actualPort(), requestId, bearer);
    }

    private FinalAnswer buy(RetryPolicy policy, int port, String requestId, String bearer) {
        BuyerClient client = new BuyerClient(vertx, PurchaseHttp.client(vertx, 4, 2_000), port, policy, (m, s) -> {});
        try {
            return client.buy(7, bearer == null ? 42 : 0, 1, requestId, bearer)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(
                    "the buyer had no final answer within 30 s; the server saw " + seen + "; its trouble: "
                            + serverTrouble,
                    e);
        }
    }

    private static JsonObject status(String requestId, String status) {
        return new JsonObject().put("requestId", requestId).put("status", status);
    }

    private long gets() {
        return seen.stream().filter(s -> s.method().equals("GET")).count();
    }

    @Test
    void anAcceptedPurchaseIsFollowedWithTheOwnersTokenUntilItIsDecided() {
        // Given a gateway that accepts the purchase and decides it on the third follow-up
        script = s -> s.method().equals("POST")
                ? new Scripted(202, 0, status("r-1", "PENDING"))
                : gets() < 3
                        ? new Scripted(202, 0, status("r-1", "PENDING"))
                        : new Scripted(200, 0, status("r-1", "SUCCESS"));
        // When a buyer with a token buys under its own id
        FinalAnswer a = buy(RetryPolicy.patient(2), "r-1", "Bearer t");
        // Then it was followed to the decision, each call with the token and the wait
        assertThat(a.word()).isEqualTo("SUCCESS");
        assertThat(a.followed()).isTrue();
        assertThat(seen).extracting(Seen::method).containsExactly("POST", "GET", "GET", "GET");
        assertThat(seen).extracting(Seen::path).last().isEqualTo(PurchaseHttp.PATH + "/r-1");
        assertThat(seen).allSatisfy(s -> {
            assertThat(s.bearer()).isEqualTo("Bearer t");
            assertThat(s.prefer()).isEqualTo("wait=2");
        });
        assertThat(seen.peek().body().containsKey("userId"))
                .as("the token names the buyer")
                .isFalse();
    }

    @Test
    void aTooManyIsTheAnswerToAClosedLoopBuyerAndComesBackAfterItsRetryAfterForAPatientOne() {
        // Given a gateway that rate-limits the first call for one second, then sells
        script = s -> seen.size() == 1
                ? new Scripted(429, 1, new JsonObject().put("status", 429))
                : new Scripted(200, 0, status("r-2", "SUCCESS"));
        // When a closed-loop buyer buys, then a patient one
        FinalAnswer closed = buy(RetryPolicy.closedLoop(0), "r-2", null);
        seen.clear();
        FinalAnswer patient = buy(RetryPolicy.patient(0), "r-2", null);
        // Then the first is told 429; the second came back, no sooner than the Retry-After said, and bought
        assertThat(closed.code()).isEqualTo(429);
        assertThat(closed.word()).isEqualTo("HTTP_429");
        assertThat(patient.word()).isEqualTo("SUCCESS");
        assertThat(seen).hasSize(2);
        assertThat(patient.micros()).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toMicros(1));
    }

    @Test
    void anUnknownIsSentAgainUnderTheIdTheGatewayNamed_whateverThePolicy() {
        // Given a gateway that does not know whether it took the first send of a purchase that named no id
        script = s -> s.body().containsKey("requestId")
                ? new Scripted(200, 0, status(s.body().getString("requestId"), "SOLD_OUT"))
                : new Scripted(503, 1, new JsonObject().put("status", 503).put("requestId", "g-1"));
        // When a closed-loop buyer (whose other 5xx are final) buys without an id
        FinalAnswer a = buy(RetryPolicy.closedLoop(0), null, null);
        // Then it sent the same purchase again under the id it was given, and has that purchase's answer
        assertThat(a.word()).isEqualTo("SOLD_OUT");
        assertThat(a.requestId()).isEqualTo("g-1");
        assertThat(seen).extracting(s -> s.body().getString("requestId")).containsExactly(null, "g-1");
    }

    @Test
    void aBusyIsTheAnswerToAClosedLoopBuyerAndSentAgainByAPatientOne() {
        script = s -> seen.size() <= 2
                ? new Scripted(503, 0, new JsonObject().put("status", 503))
                : new Scripted(200, 0, status("r-3", "DUPLICATE"));
        assertThat(buy(RetryPolicy.closedLoop(0), "r-3", null).code()).isEqualTo(503);
        assertThat(buy(RetryPolicy.patient(0), "r-3", null).word()).isEqualTo("DUPLICATE");
        assertThat(seen).hasSize(3);
    }

    @Test
    void aNotFoundWhileFollowingIsNotedAndAskedAgain_aRefusalIsFinal() {
        // Given a gateway that accepts, then says it does not know the purchase once, then decides it
        script = s -> s.method().equals("POST")
                ? new Scripted(202, 0, status("r-4", "PENDING"))
                : gets() == 1
                        ? new Scripted(404, 0, new JsonObject().put("status", 404))
                        : new Scripted(200, 0, status("r-4", "REJECTED"));
        // When a closed-loop buyer buys
        FinalAnswer a = buy(RetryPolicy.closedLoop(1), "r-4", null);
        // Then the not-found was noted, asked again, and the decision is its answer
        assertThat(a.word()).isEqualTo("REJECTED");
        assertThat(a.notFoundWhileFollowing()).isTrue();
        // and a 409 naming its field is the answer at once
        seen.clear();
        script = s -> new Scripted(409, 0, new JsonObject().put("status", 409).put("field", "requestId"));
        FinalAnswer refused = buy(RetryPolicy.patient(1), "r-4", null);
        assertThat(refused.toString()).isEqualTo("409 field=requestId");
        assertThat(refused.decided()).isFalse();
        assertThat(seen).hasSize(1);
    }

    @Test
    void aBuyerWhoseGatewayNeverAnswersGivesUpAfterItsTime() throws Exception {
        // Given a port nothing listens on
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        RetryPolicy brief = new RetryPolicy(0, 1_000, 600, 50, RetryPolicy.Refusal.RETRY, RetryPolicy.Refusal.RETRY);
        // When a buyer buys there
        FinalAnswer a = buy(brief, closed, "r-5", null);
        // Then, after sending again for its give-up time, it has no answer
        assertThat(a.code()).isZero();
        assertThat(a.word()).isEqualTo(FinalAnswer.NO_ANSWER);
        assertThat(a.micros()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(600));
        assertThat(List.of(a.followed(), a.notFoundWhileFollowing())).containsOnly(false);
    }

    @Test
    void aBuyerWhoseCallIsNeverAnsweredGivesUpAfterItsTimeThoughItWaitsForRepliesHoweverLong() {
        // Given a gateway that takes the purchase and never replies
        script = s -> null;
        RetryPolicy unbounded = new RetryPolicy(0, 0, 600, 50, RetryPolicy.Refusal.FINAL, RetryPolicy.Refusal.FINAL);
        // When a buyer whose calls wait for their reply however long buys there
        FinalAnswer a = buy(unbounded, "r-6", null);
        // Then at its give-up time it has no answer, under the id it sent
        assertThat(a.word()).isEqualTo(FinalAnswer.NO_ANSWER);
        assertThat(a.requestId()).isEqualTo("r-6");
        assertThat(a.micros()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(600));
        assertThat(seen).hasSize(1);
    }
}
