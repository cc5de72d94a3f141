package dev.seckill.infra.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one call to a gateway against a loopback server: whoever calls it, from whatever thread, gets its reply. */
@Tag("fast")
class PurchaseHttpTest {
    private final Vertx vertx = PurchaseHttp.vertx(2);
    private HttpServer server;
    private final Queue<Long> spun = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(
                        req -> req.response().setStatusCode(202).end("{\"requestId\":\"r\",\"status\":\"PENDING\"}"))
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallFromAThreadOutsideVertxHasItsReplyHoweverSoonItComes() throws Exception {
        // Given a client whose replies come back on loopback at once, and callers on plain threads (a scenario's, a
        // test's) that the machine's other work pauses between any two statements (here: threads that only spin)
        HttpClient client = PurchaseHttp.client(vertx, 8, 2_000);
        Queue<String> lost = new ConcurrentLinkedQueue<>();
        List<Thread> callers = new ArrayList<>();
        AtomicBoolean calling = new AtomicBoolean(true);
        List<Thread> spinners = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            Thread spinner = new Thread(() -> {
                long n = 0;
                while (calling.get()) n++;
                spun.add(n);
            });
            spinner.setDaemon(true);
            spinner.start();
            spinners.add(spinner);
        }
        // When each sends calls one after the other
        for (int t = 0; t < 4; t++) {
            Thread caller = new Thread(() -> {
                for (int i = 0; i < 2_000 && lost.isEmpty(); i++) {
                    try {
                        PurchaseHttp.send(
                                        client,
                                        server.actualPort(),
                                        HttpMethod.GET,
                                        PurchaseHttp.PATH + "/r",
                                        null,
                                        null,
                                        0)
                                .toCompletionStage()
                                .toCompletableFuture()
                                .get(5, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        lost.add("call " + i + " of " + Thread.currentThread().getName() + " had no reply in 5 s");
                    } catch (Exception e) {
                        lost.add("call " + i + " failed: " + e);
                    }
                }
            });
            caller.start();
            callers.add(caller);
        }
        for (Thread c : callers) c.join(TimeUnit.SECONDS.toMillis(60));
        calling.set(false);
        for (Thread s : spinners) s.join();
        // Then every call had its reply (a body read too late is lost for good: the call would never complete)
        assertThat(lost).isEmpty();
    }
}
