package dev.seckill.gateway.status;

import dev.seckill.contracts.outcome.Outcome;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Requests holding their reply until their outcome is known ({@code Prefer: wait=N}). A waiter is an entry in a map
 * and a Vert.x timer — no thread — so thousands of waiters cost memory, not threads. Each ends exactly once: by its
 * outcome (from the gateway's view of the committed outcome topics), by its deadline, or by the gateway shutting
 * down, which answers every waiter before it closes.
 */
public final class Waiters {
    private final class Waiter {
        final String requestId;
        final Predicate<Outcome> mine;
        final Context context;
        final Consumer<Outcome> decided;
        final Runnable expired;
        final AtomicBoolean done = new AtomicBoolean();
        long timer = -1;

        Waiter(
                String requestId,
                Predicate<Outcome> mine,
                Context context,
                Consumer<Outcome> decided,
                Runnable expired) {
            this.requestId = requestId;
            this.mine = mine;
            this.context = context;
            this.decided = decided;
            this.expired = expired;
        }

        void decide(Outcome o) {
            if (!done.compareAndSet(false, true)) return;
            context.runOnContext(v -> {
                if (timer >= 0) vertx.cancelTimer(timer);
                decided.accept(o);
            });
        }

        void expire() {
            if (!done.compareAndSet(false, true)) return;
            remove(this);
            context.runOnContext(v -> {
                if (timer >= 0) vertx.cancelTimer(timer);
                expired.run();
            });
        }
    }

    private final Vertx vertx;
    private final Function<String, Outcome> known;
    private final Map<String, Set<Waiter>> byRequest = new ConcurrentHashMap<>();
    /** Waiters in the map, counted as they enter and leave it (the cap is checked on every held request). */
    private final AtomicInteger count = new AtomicInteger();

    private volatile boolean closing;

    /** @param known the outcome already seen for a requestId, or null (checked after a waiter is registered) */
    public Waiters(Vertx vertx, Function<String, Outcome> known) {
        this.vertx = vertx;
        this.known = known;
    }

    /**
     * Waits on the calling event loop: {@code decided} or {@code expired} runs there, exactly once. Only an outcome
     * that is {@code mine} ends the wait: another purchase's outcome under the same requestId does not.
     */
    public void await(
            String requestId, Predicate<Outcome> mine, long waitMs, Consumer<Outcome> decided, Runnable expired) {
        Waiter w = new Waiter(requestId, mine, vertx.getOrCreateContext(), decided, expired);
        if (closing) { // a request accepted while the gateway shuts down: answered at once, not held
            w.expire();
            return;
        }
        // added inside compute: atomic with remove(), so a waiter never lands in a set that just left the map
        byRequest.compute(requestId, (k, set) -> {
            Set<Waiter> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            if (s.add(w)) count.incrementAndGet();
            return s;
        });
        w.timer = vertx.setTimer(Math.max(1, waitMs), t -> w.expire());
        if (closing) { // expireAll ran between the check above and the registration
            w.expire();
            return;
        }
        Outcome already = known.apply(requestId); // it may have arrived between the caller's look and the registration
        if (already != null && mine.test(already)) {
            remove(w);
            w.decide(already);
        }
    }

    /** An outcome arrived: every waiter of its requestId whose purchase it is gets it; the others go on waiting. */
    public void decided(Outcome o) {
        List<Waiter> woken = new ArrayList<>();
        byRequest.computeIfPresent(o.requestId(), (k, set) -> {
            set.removeIf(w -> w.mine.test(o) && woken.add(w));
            count.addAndGet(-woken.size());
            return set.isEmpty() ? null : set;
        });
        woken.forEach(w -> w.decide(o));
    }

    /** Answers every waiter as if its deadline had come (the gateway is shutting down). */
    public void expireAll() {
        closing = true;
        byRequest.values().forEach(set -> set.forEach(Waiter::expire));
    }

    public int waiting() {
        return count.get();
    }

    private void remove(Waiter w) {
        byRequest.computeIfPresent(w.requestId, (k, set) -> {
            if (set.remove(w)) count.decrementAndGet();
            return set.isEmpty() ? null : set;
        });
    }
}
