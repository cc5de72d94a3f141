package dev.seckill.kit.threads;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** Background work a service's exit never waits for: one named daemon thread per scheduler. */
public final class Daemons {
    private Daemons() {}

    /** A scheduler whose one thread is a daemon named {@code name} (how a thread dump and the logs show it). */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
