package dev.seckill.kit.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What a service does while it handles a request, in a JVM of its own started by {@link LogbackConfigTest}: a DEBUG
 * line, an INFO and an ERROR line (with an exception) under a traceId in the MDC, then an INFO line outside it, and
 * an INFO line as a Kafka client writes one (a rebalance).
 */
public final class LoggingProbe {
    static final String LOGGER = "dev.seckill.probe";
    static final String KAFKA_LOGGER = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator";
    static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

    private LoggingProbe() {}

    public static void main(String[] args) {
        Logger log = LoggerFactory.getLogger(LOGGER);
        log.debug("a debug line");
        MDC.put("traceId", TRACE_ID);
        try {
            log.info("handling purchase {}", 42);
            log.error("purchase {} failed", 42, new IllegalStateException("boom", new RuntimeException("root cause")));
        } finally {
            MDC.remove("traceId");
        }
        log.info("after the request");
        LoggerFactory.getLogger(KAFKA_LOGGER).info("(Re-)joining group");
    }
}
