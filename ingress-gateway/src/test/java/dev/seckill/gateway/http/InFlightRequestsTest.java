package dev.seckill.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Given a real HTTP server whose one route answers only when the test says so, a request held there is open until its
 * answer ends it, and waiting for none open lasts until then (or gives up at its bound): what a closing gateway waits
 * on before its servers close.
 */
class InFlightRequestsTest {
    Vertx vertx;
    HttpServer server;
    final InFlightRequests inFlight = new InFlightRequests();
    final CompletableFuture<RoutingContext> held = new CompletableFuture<>();
    final CompletableFuture<RoutingContext> heldLater = new CompletableFuture<>();
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void serve() throws Exception {
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.route().handler(inFlight);
        router.get("/held").handler(held::complete);
        router.get("/held-later").handler(heldLater::complete);
        router.get("/now").handler(ctx -> ctx.response().end("now"));
        server = vertx.createHttpServer()
                .requestHandler(router)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    CompletableFuture<HttpResponse<String>> get(String path) {
        return http.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aHeldRequestIsWaitedForUntilItsAnswerEndsIt_andAnsweredOnesAreNotCounted() throws Exception {
        assertThat(get("/now").get(10, TimeUnit.SECONDS).body()).isEqualTo("now");
        assertThat(inFlight.open()).isZero();

        CompletableFuture<HttpResponse<String>> waiting = get("/held");
        RoutingContext ctx = held.get(10, TimeUnit.SECONDS);
        assertThat(inFlight.open()).isEqualTo(1);
        assertThat(inFlight.awaitNone(Duration.ofMillis(200)))
                .as("still held: the bound gives up")
                .isFalse();

        CompletableFuture<Boolean> none = CompletableFuture.supplyAsync(() -> {
            try {
                return inFlight.awaitNone(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !none.isDone());
        ctx.response().setStatusCode(202).end("pending");

        assertThat(none.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(waiting.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(202);
        assertThat(inFlight.open()).isZero();
    }

    @Test
    void aRequestTakenOnceTheWaitBegan_isNotWaitedFor_soSteadyTrafficCannotHoldAClose() throws Exception {
        assertThat(inFlight.awaitNone(Duration.ofSeconds(1))).isTrue();

        CompletableFuture<HttpResponse<String>> later = get("/held-later");
        RoutingContext ctx = heldLater.get(10, TimeUnit.SECONDS);

        assertThat(inFlight.open()).isZero();
        assertThat(inFlight.awaitNone(Duration.ofMillis(100))).isTrue();
        ctx.response().setStatusCode(503).end();
        assertThat(later.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
    }
}
