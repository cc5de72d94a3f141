package dev.seckill.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;

/**
 * The requests the public port is answering now, from their first handler to the end of their response (or of their
 * connection). A closing gateway waits for them before its servers close: a purchase whose Kafka acknowledgment was
 * still on its way when the waiters were answered is answered too (202 PENDING), not cut off by the close.
 */
public final class InFlightRequests implements Handler<RoutingContext> {
    private int open;
    /** Set by {@link #awaitNone}: a request taken after it (answered 503 at once) is not waited for. */
    private volatile boolean closing;

    @Override
    public void handle(RoutingContext ctx) {
        if (!closing) {
            synchronized (this) {
                open++;
            }
            ctx.addEndHandler(v -> ended());
        }
        ctx.next();
    }

    private synchronized void ended() {
        if (--open == 0) notifyAll();
    }

    public synchronized int open() {
        return open;
    }

    /**
     * Waits until none of the requests taken so far is open, {@code atMost} in all; true when none is. Requests taken
     * from now on are not counted: under steady traffic the wait would never end.
     */
    public synchronized boolean awaitNone(Duration atMost) throws InterruptedException {
        closing = true;
        long until = System.nanoTime() + atMost.toNanos();
        while (open > 0) {
            long left = until - System.nanoTime();
            if (left <= 0) return false;
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
