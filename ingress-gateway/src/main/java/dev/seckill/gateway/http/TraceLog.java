package dev.seckill.gateway.http;

import org.slf4j.Logger;
import org.slf4j.MDC;

/** A warning logged with the request's traceId in the MDC, so the log line joins the trace from gateway to DB row. */
public final class TraceLog {
    private TraceLog() {}

    public static void warn(Logger log, String traceId, String format, Object... args) {
        MDC.put("traceId", traceId);
        try {
            log.warn(format, args);
        } finally {
            MDC.remove("traceId");
        }
    }
}
