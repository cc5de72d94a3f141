package dev.seckill.stock.decision;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A Redis round trip made on another thread while the caller does its own work (docs/performance.md, "Where the time
 * goes"). Returns when both are done; the caller never touches the calls while the round trip is out, and when its own
 * work fails it still waits for the round trip before throwing, so no two round trips of one caller overlap.
 */
final class OverlappedRoundTrip {
    /** Where the round trips are made: daemon threads, at most one per stream thread at a time. */
    private static final ExecutorService ROUND_TRIPS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "seckill-redis-round-trip");
        t.setDaemon(true);
        return t;
    });

    private OverlappedRoundTrip() {}

    static List<LuaResult> run(Callable<List<LuaResult>> roundTrip, Runnable whileWaiting) {
        Future<List<LuaResult>> trip = ROUND_TRIPS.submit(roundTrip);
        try {
            whileWaiting.run();
        } catch (RuntimeException | Error e) {
            try {
                await(trip);
            } catch (RuntimeException | Error ignored) {
                // the caller's own failure is the one it reports
            }
            throw e;
        }
        return await(trip);
    }

    private static List<LuaResult> await(Future<List<LuaResult>> trip) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return trip.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the round trip is under way: its answer is this batch's, wait for it
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    if (e.getCause() instanceof Error err) throw err;
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
