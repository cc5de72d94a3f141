package dev.seckill.infra.harness.buyers;

import dev.seckill.infra.harness.PurchaseHttp;
import dev.seckill.infra.harness.PurchaseHttp.Reply;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjIntConsumer;

/**
 * The one client that follows a purchase at a gateway to its final answer, as a buyer's app would: {@code POST
 * /api/purchases}, then whatever its {@link RetryPolicy} says each reply means — follow a 202 with {@code GET
 * /api/purchases/{requestId}}, send again what got no reply, come back after a Retry-After, or take the reply as the
 * answer. {@code bench strategies} ({@link BuyerLoad}), {@code bench hostile} and the chaos scenarios' own buyers all
 * buy through it; they differ only in their policy. A black box over HTTP ({@link PurchaseHttp}).
 */
public final class BuyerClient {
    private static final JsonObject NOTHING = new JsonObject();

    private final Vertx vertx;
    private final HttpClient http;
    private final int port;
    private final RetryPolicy policy;
    private final ObjIntConsumer<HttpMethod> onReply;

    /**
     * A client of the gateway on {@code port} over {@code http} (on {@code vertx}'s event loops); {@code onReply} hears
     * every call's method and reply status (0: no reply) — a benchmark counts them.
     */
    public BuyerClient(Vertx vertx, HttpClient http, int port, RetryPolicy policy, ObjIntConsumer<HttpMethod> onReply) {
        this.vertx = vertx;
        this.http = http;
        this.port = port;
        this.policy = policy;
        this.onReply = onReply;
    }

    public RetryPolicy policy() {
        return policy;
    }

    /**
     * Buys {@code quantity} of {@code goods}: as buyer {@code user} named in the body ({@code bearer} null), or as the
     * owner of the {@code bearer} token ({@code user} 0); under {@code requestId}, or one the gateway issues (null).
     * Completes with the final answer — never fails: no answer within the policy's give-up time is an answer too, even
     * while a call that waits for its reply however long ({@link RetryPolicy#replyMillis} 0) is still out.
     */
    public Future<FinalAnswer> buy(long goods, long user, int quantity, String requestId, String bearer) {
        Promise<FinalAnswer> answer = Promise.promise();
        Purchase purchase = new Purchase(answer, goods, user, quantity, bearer, System.nanoTime());
        purchase.lastId = requestId;
        long deadline = vertx.setTimer(policy.giveUpMillis(), t -> purchase.giveUp());
        answer.future().onComplete(done -> vertx.cancelTimer(deadline));
        purchase.post(requestId);
        return answer.future();
    }

    /** One buyer's purchase, followed until it has its answer. */
    private final class Purchase {
        private final Promise<FinalAnswer> answer;
        private final long goods;
        private final long user;
        private final int quantity;
        private final String bearer;
        private final long started;
        private volatile boolean followed;
        private volatile boolean notFound;
        private volatile String lastId;

        Purchase(Promise<FinalAnswer> answer, long goods, long user, int quantity, String bearer, long started) {
            this.answer = answer;
            this.goods = goods;
            this.user = user;
            this.quantity = quantity;
            this.bearer = bearer;
            this.started = started;
        }

        void post(String requestId) {
            lastId = requestId;
            if (gaveUp(requestId)) return;
            String body = PurchaseHttp.body(goods, user, quantity, requestId);
            call(HttpMethod.POST, PurchaseHttp.PATH, body).onComplete(ar -> {
                if (ar.failed()) {
                    later(policy.pauseMillis(), () -> post(requestId));
                    return;
                }
                Reply r = ar.result();
                JsonObject b = r.body();
                String named = b.getString("requestId", requestId);
                if (r.status() == 200 && FinalAnswer.DECIDED.contains(r.outcome())) done(r, b, named);
                else if (r.status() == 202 || r.status() == 200) follow(named);
                else if (r.status() == 503 && b.containsKey("requestId"))
                    // UNKNOWN: the gateway may have taken it; the same purchase again under the id it named
                    later(r.pauseMillis(policy.pauseMillis()), () -> post(named));
                else if (refused(r)) done(r, b, named);
                else later(r.pauseMillis(policy.pauseMillis()), () -> post(requestId));
            });
        }

        /** An accepted purchase: asked for until it is decided. */
        void follow(String requestId) {
            followed = true;
            lastId = requestId;
            if (gaveUp(requestId)) return;
            call(HttpMethod.GET, PurchaseHttp.PATH + "/" + requestId, null).onComplete(ar -> {
                if (ar.failed()) {
                    later(policy.pauseMillis(), () -> follow(requestId)); // the gateway is restarting
                    return;
                }
                Reply r = ar.result();
                if (r.status() == 200 && FinalAnswer.DECIDED.contains(r.outcome())) done(r, r.body(), requestId);
                else if (r.status() == 202 && policy.waitSeconds() > 0)
                    follow(requestId); // a long poll that ended at its deadline: asked again at once
                else if (r.status() == 202 || r.status() == 200) later(policy.pauseMillis(), () -> follow(requestId));
                else if (r.status() == 404) {
                    notFound = true; // an accepted purchase its buyer is told does not exist: noted, asked again
                    later(policy.pauseMillis(), () -> follow(requestId));
                } else if (r.status() == 429 || r.status() >= 500)
                    later(r.pauseMillis(policy.pauseMillis()), () -> follow(requestId));
                else done(r, r.body(), requestId);
            });
        }

        /** Whether the reply to a purchase is its answer, as the policy reads refusals; any other 4xx is. */
        private boolean refused(Reply r) {
            if (r.status() == 429) return policy.tooMany() == RetryPolicy.Refusal.FINAL;
            if (r.status() >= 500) return policy.busy() == RetryPolicy.Refusal.FINAL;
            return true;
        }

        private Future<Reply> call(HttpMethod method, String path, String body) {
            return PurchaseHttp.send(
                            http,
                            port,
                            method,
                            path,
                            bearer,
                            body == null ? null : Buffer.buffer(body),
                            policy.waitSeconds(),
                            replyMillis())
                    .andThen(ar ->
                            onReply.accept(method, ar.succeeded() ? ar.result().status() : 0));
        }

        /**
         * How long this call may wait for its reply: the policy's time, or when it has none, what is left of the
         * give-up time — a call abandoned at the give-up time must not hold its pooled connection after it.
         */
        private long replyMillis() {
            if (policy.replyMillis() > 0) return policy.replyMillis();
            long left = policy.giveUpMillis() - (System.nanoTime() - started) / 1_000_000;
            return Math.max(1, left);
        }

        private boolean gaveUp(String requestId) {
            if (answer.future().isComplete()) return true;
            if (System.nanoTime() - started <= TimeUnit.MILLISECONDS.toNanos(policy.giveUpMillis())) return false;
            answer.tryComplete(new FinalAnswer(0, NOTHING, requestId, micros(), followed, notFound));
            return true;
        }

        /** The give-up time has passed with a call still out: no answer, whatever that call brings later. */
        void giveUp() {
            answer.tryComplete(new FinalAnswer(0, NOTHING, lastId, micros(), followed, notFound));
        }

        private void done(Reply r, JsonObject body, String requestId) {
            answer.tryComplete(new FinalAnswer(r.status(), body, requestId, micros(), followed, notFound));
        }

        private long micros() {
            return (System.nanoTime() - started) / 1_000;
        }

        private void later(long ms, Runnable r) {
            vertx.setTimer(Math.max(1, ms), t -> r.run());
        }
    }
}
