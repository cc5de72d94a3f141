package dev.seckill.gateway.status;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis calls for the event loops, which must not block: callers get a future, one thread takes whatever is queued
 * (up to 512) and sends it as one pipeline, one round trip for the lot. Under load the batches grow and the cost per
 * call falls; idle, a call waits one round trip. The queue is bounded: when it is full a call fails at once and the
 * caller degrades (the status store is a convenience next to Kafka, which holds the truth).
 */
public final class RedisBatcher implements AutoCloseable {
    private record Call<T>(Function<AbstractPipeline, Response<T>> request, CompletableFuture<T> result) {
        void complete(Response<?> response) {
            try {
                @SuppressWarnings("unchecked")
                T value = (T) response.get();
                result.complete(value);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }
    }

    private static final int MAX_BATCH = 512;
    private final UnifiedJedis redis;
    private final BlockingQueue<Call<?>> queue;
    private final Thread thread;
    private volatile boolean running = true;

    public RedisBatcher(UnifiedJedis redis, int capacity, String name) {
        this.redis = redis;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    public <T> CompletableFuture<T> submit(Function<AbstractPipeline, Response<T>> request) {
        CompletableFuture<T> result = new CompletableFuture<>();
        if (!running || !queue.offer(new Call<>(request, result))) {
            result.completeExceptionally(new IllegalStateException("the Redis call queue is full or closed"));
        }
        return result;
    }

    private void run() {
        List<Call<?>> batch = new ArrayList<>(MAX_BATCH);
        while (running || !queue.isEmpty()) {
            try {
                Call<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                send(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void send(List<Call<?>> batch) {
        List<Response<?>> responses = new ArrayList<>(batch.size());
        try (AbstractPipeline pipe = redis.pipelined()) {
            for (Call<?> call : batch) responses.add(call.request().apply(pipe));
            pipe.sync();
        } catch (RuntimeException e) {
            for (Call<?> call : batch) call.result().completeExceptionally(e);
            return;
        }
        for (int i = 0; i < batch.size(); i++) batch.get(i).complete(responses.get(i));
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
