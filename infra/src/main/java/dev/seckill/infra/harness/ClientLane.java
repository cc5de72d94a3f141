package dev.seckill.infra.harness;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Vert.x generator of an {@link HttpLoad} ({@code bench gateway --generator jvm}, the demo): a lane of Vert.x's
 * HTTP client, one request in flight, sent and read through {@link PurchaseHttp}. One verticle per event loop, each
 * with its own client and its share of the connections, so that a lane's answers come back on its loop.
 */
final class ClientLane implements LoadLoop.Lane {
    private final LoadLoop loop;
    private final HttpClient client;
    private final Buffer[] bodies;
    private final String[] auth;

    private ClientLane(LoadLoop loop, HttpClient client, Buffer[] bodies, String[] auth) {
        this.loop = loop;
        this.client = client;
        this.bodies = bodies;
        this.auth = auth;
        loop.idle.add(this);
    }

    /** The run's lanes on a Vert.x of their own, bodies and tokens prepared before its clock starts. */
    static HttpLoad.Lanes open(LoadSpec spec, LoadRun run) throws InterruptedException {
        Buffer[] bodies = new Buffer[run.requests()];
        String[] auth = new String[run.requests()];
        for (int i = 0; i < bodies.length; i++) {
            bodies[i] = Buffer.buffer(PurchaseHttp.body(spec.goodsId(), run.user[i], 1, run.requestId(i)));
            auth[i] = run.bearer(i);
        }
        int loops =
                Math.max(1, Math.min(spec.connections(), Runtime.getRuntime().availableProcessors()));
        Vertx vertx = PurchaseHttp.vertx(loops);
        List<LoadLoop> all = new ArrayList<>();
        HttpLoad.Lanes lanes = new HttpLoad.Lanes(
                all,
                () -> vertx.close().toCompletionStage().toCompletableFuture().join());
        List<Future<String>> deployed = new ArrayList<>();
        for (int l = 0; l < loops; l++) {
            int share = spec.connections() / loops + (l < spec.connections() % loops ? 1 : 0);
            deployed.add(vertx.deployVerticle(new AbstractVerticle() {
                @Override
                public void start() {
                    HttpClient client = PurchaseHttp.client(vertx, share, 10_000);
                    LoadLoop loop = new LoadLoop(run, task -> context.runOnContext(v -> task.run()), task -> {
                        long timer = vertx.setPeriodic(1, t -> task.run());
                        return () -> vertx.cancelTimer(timer);
                    });
                    for (int c = 0; c < share; c++) new ClientLane(loop, client, bodies, auth);
                    synchronized (all) {
                        all.add(loop);
                    }
                }
            }));
        }
        try {
            Future.all(deployed).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            lanes.close();
            if (e instanceof InterruptedException ie) throw ie;
            throw new IllegalStateException("the load's clients did not start: " + e.getMessage(), e);
        }
        return lanes;
    }

    @Override
    public void send(int i) {
        PurchaseHttp.send(
                        client,
                        loop.run.spec.port(),
                        HttpMethod.POST,
                        PurchaseHttp.PATH,
                        auth[i],
                        bodies[i],
                        loop.run.spec.waitSeconds(),
                        0)
                .onComplete(ar -> {
                    long now = System.nanoTime();
                    int status = ar.succeeded() ? ar.result().status() : -1;
                    if (status == 202 && loop.run.keepsIds())
                        loop.run.acceptedId(ar.result().raw().toString());
                    loop.run.answered(i, status, now);
                    loop.free(this);
                });
    }
}
