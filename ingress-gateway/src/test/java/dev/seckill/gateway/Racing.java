package dev.seckill.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/** Test helper: runs {@code body(thread index)} on several threads released together, and waits for all of them. */
public final class Racing {
    private Racing() {}

    /** Rethrows the first failure of any thread (an assertion inside a racer is not lost). */
    public static void run(int threads, IntConsumer body) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread th = new Thread(
                    () -> {
                        try {
                            go.await();
                            body.accept(me);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (Throwable e) {
                            failed.compareAndSet(null, e);
                        }
                    },
                    "racer-" + t);
            th.start();
            all.add(th);
        }
        go.countDown();
        for (Thread th : all) th.join();
        if (failed.get() != null) throw new AssertionError("a racing thread failed", failed.get());
    }
}
