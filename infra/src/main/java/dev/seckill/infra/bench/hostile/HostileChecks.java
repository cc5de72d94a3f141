package dev.seckill.infra.bench.hostile;

import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.PurchaseHttp.Reply;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * What {@code bench hostile} asks the gateway once a sale is over, as its clients would. The owners: each accepted
 * purchase looked up by its owner ({@code GET /api/purchases/{id}}, the owner's token) must be known (never 404).
 * The claims: a sample of the buyers' requestIds sent again by other accounts (same goods, same quantity, another
 * token) must be refused 409; a 200 or 202 means the id was not held for its buyer (a claim lost). A 429 or 503 is
 * asked again after its Retry-After (five tries), as a client would; what it finally answered is counted.
 */
final class HostileChecks {
    /** The owners' lookups: how many, answered 404, answered something else than the outcome the buyer holds. */
    record Owners(int asked, int notFound, int otherThanOutcome, Map<Integer, Long> answers) {}

    /** Other accounts' POSTs of buyers' (goods, requestId): how many, refused 409, taken (200/202: lost), by status. */
    record Claims(int tried, int refused, int lost, Map<Integer, Long> answers) {}

    private static final int CONCURRENCY = 50;
    private static final int TRIES = 5;

    private HostileChecks() {}

    static Owners owners(int port, HostileSale sale) {
        List<Integer> accepted = accepted(sale, Integer.MAX_VALUE);
        AtomicInteger notFound = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        Map<Integer, Long> answers = new TreeMap<>();
        run((vertx, client) -> PurchaseHttp.each(vertx, accepted.size(), CONCURRENCY, k -> {
            int i = accepted.get(k);
            String path = PurchaseHttp.PATH + "/" + sale.requestIds()[i];
            return patient(vertx, client, port, HttpMethod.GET, path, sale.bearers()[i], null, TRIES)
                    .onComplete(ar -> {
                        int status = ar.succeeded() ? ar.result().status() : 0;
                        synchronized (answers) {
                            answers.merge(status, 1L, Long::sum);
                        }
                        if (status == 404) notFound.incrementAndGet();
                        else if (status != 200
                                || !sale.outcomes()[i].equals(ar.result().outcome())) other.incrementAndGet();
                    });
        }));
        return new Owners(accepted.size(), notFound.get(), other.get(), answers);
    }

    /**
     * Up to {@code sample} accepted purchases (spread over the buyers), each sent again by account
     * {@code firstThief + k} to the gateway on {@code port}.
     */
    static Claims claims(int port, HostileSale sale, int sample, long firstThief, LongFunction<String> bearerOf) {
        List<Integer> sampled = accepted(sale, sample);
        List<String> thieves = new ArrayList<>();
        for (int k = 0; k < sampled.size(); k++) thieves.add(bearerOf.apply(firstThief + k));
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        Map<Integer, Long> answers = new TreeMap<>();
        run((vertx, client) -> PurchaseHttp.each(vertx, sampled.size(), CONCURRENCY, k -> {
            int i = sampled.get(k);
            String body = PurchaseHttp.body(sale.goods(), 0, sale.quantity(), sale.requestIds()[i]);
            return patient(vertx, client, port, HttpMethod.POST, PurchaseHttp.PATH, thieves.get(k), body, TRIES)
                    .onComplete(ar -> {
                        int status = ar.succeeded() ? ar.result().status() : 0;
                        synchronized (answers) {
                            answers.merge(status, 1L, Long::sum);
                        }
                        if (status == 409) refused.incrementAndGet();
                        else if (status == 200 || status == 202) lost.incrementAndGet();
                    });
        }));
        return new Claims(sampled.size(), refused.get(), lost.get(), answers);
    }

    /** The accepted purchases' indexes, at most {@code max} of them, spread evenly over the buyers. */
    static List<Integer> accepted(HostileSale sale, int max) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < sale.buyers(); i++) if (sale.accepted()[i]) all.add(i);
        if (all.size() <= max) return all;
        List<Integer> some = new ArrayList<>();
        for (int k = 0; k < max; k++) some.add(all.get((int) ((long) k * all.size() / max)));
        return some;
    }

    /** The call, asked again after a pause while answered 429 or 5xx or not at all; {@code tries} times at most. */
    private static Future<Reply> patient(
            Vertx vertx,
            HttpClient client,
            int port,
            HttpMethod m,
            String path,
            String bearer,
            String body,
            int tries) {
        return PurchaseHttp.send(client, port, m, path, bearer, body, 0).transform(ar -> {
            boolean again =
                    ar.failed() || ar.result().status() == 429 || ar.result().status() >= 500;
            if (!again || tries <= 1)
                return ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(ar.cause());
            Promise<Reply> p = Promise.promise();
            long pause = ar.succeeded() ? ar.result().pauseMillis(200) : 200;
            vertx.setTimer(
                    pause,
                    t -> patient(vertx, client, port, m, path, bearer, body, tries - 1)
                            .onComplete(p));
            return p.future();
        });
    }

    private interface Check {
        Future<Void> start(Vertx vertx, HttpClient client);
    }

    /** Runs a check on a Vert.x of its own and waits for it (two minutes at most). */
    private static void run(Check check) {
        Vertx vertx = PurchaseHttp.vertx(2);
        try {
            HttpClient client = PurchaseHttp.client(vertx, CONCURRENCY, 5_000);
            Promise<Void> done = Promise.promise();
            vertx.runOnContext(v -> check.start(vertx, client).onComplete(done));
            done.future().toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException("a check of the sale did not finish: " + e.getMessage(), e);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
