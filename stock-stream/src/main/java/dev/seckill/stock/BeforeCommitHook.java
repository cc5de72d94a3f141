package dev.seckill.stock;

import java.util.Map;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A hook run before every commit of a task, registered as a state store because that is where Kafka Streams offers one:
 * it holds no data. Kafka Streams flushes every {@link CachedStateStore} of a task right before it flushes
 * the producer and commits the task's transaction (StreamTask#flush: state manager flushCache, then record
 * collector flush) — on every commit, including the one on revocation. The decide processor registers here so
 * that records it buffered for one pipelined Redis round trip are decided and forwarded before any commit: a
 * consumed offset is never committed without its outputs. (CachedStateStore is Kafka Streams' internal interface
 * for caching stores; checked against kafka-streams 4.4.)
 */
final class BeforeCommitHook implements StateStore, CachedStateStore<Object, Object> {
    /** The store's name (kept from when it was called the decision buffer: it names no changelog, only the store). */
    static final String NAME = "decision-buffer";

    private volatile Runnable beforeCommit = () -> {};
    private boolean open;

    void beforeCommit(Runnable r) {
        beforeCommit = r;
    }

    @Override
    public void flushCache() {
        beforeCommit.run();
    }

    @Override
    public void clearCache() {}

    @Override
    public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> {});
        open = true;
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    static StoreBuilder<BeforeCommitHook> builder() {
        return new StoreBuilder<>() {
            @Override
            public StoreBuilder<BeforeCommitHook> withCachingEnabled() {
                return this;
            }

            @Override
            public StoreBuilder<BeforeCommitHook> withCachingDisabled() {
                return this;
            }

            @Override
            public StoreBuilder<BeforeCommitHook> withLoggingEnabled(Map<String, String> config) {
                return this;
            }

            @Override
            public StoreBuilder<BeforeCommitHook> withLoggingDisabled() {
                return this;
            }

            @Override
            public BeforeCommitHook build() {
                return new BeforeCommitHook();
            }

            @Override
            public Map<String, String> logConfig() {
                return Map.of();
            }

            @Override
            public boolean loggingEnabled() {
                return false;
            }

            @Override
            public String name() {
                return NAME;
            }
        };
    }
}
