package dev.seckill.infra.bench;

import com.sun.net.httpserver.HttpServer;
import dev.seckill.infra.harness.Flags;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.trace.Tracing;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code --trace} on a benchmark: the service it runs in this JVM makes its OpenTelemetry spans and exports them over
 * OTLP/HTTP, as with {@code SECKILL_TRACE_OTLP_ENDPOINT} set, to a sink in this JVM that takes every export and
 * answers 200 — the whole cost of tracing (spans, batching, encoding, the HTTP export) without a collector's. Closing
 * it flushes the spans, turns tracing off and prints what the sink took.
 */
public final class BenchTracing implements AutoCloseable {
    private final HttpServer sink;
    private final AutoCloseable tracing;
    private final AtomicLong exports;
    private final AtomicLong bytes;
    private final PrintStream out;

    private BenchTracing(
            HttpServer sink, AutoCloseable tracing, AtomicLong exports, AtomicLong bytes, PrintStream out) {
        this.sink = sink;
        this.tracing = tracing;
        this.exports = exports;
        this.bytes = bytes;
        this.out = out;
    }

    /** Starts tracing for {@code service} when the flags say {@code --trace}; else a no-op. */
    public static AutoCloseable startIf(Flags f, Settings base, String service, PrintStream out) throws IOException {
        if (!f.has("trace")) return () -> {};
        AtomicLong exports = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        sink.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                bytes.addAndGet(body.readAllBytes().length);
            }
            exports.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.start();
        String endpoint = "http://127.0.0.1:" + sink.getAddress().getPort() + "/v1/traces";
        AutoCloseable tracing =
                Tracing.start(base.and(Map.of(SharedSettings.TRACE_OTLP_ENDPOINT.name(), endpoint)), service);
        out.printf("tracing            on: %s's spans exported over OTLP/HTTP to a sink in this JVM%n", service);
        return new BenchTracing(sink, tracing, exports, bytes, out);
    }

    @Override
    public void close() throws Exception {
        tracing.close();
        sink.stop(0);
        out.printf(
                "tracing            %,d OTLP exports, %,d KB of spans taken by the sink%n",
                exports.get(), bytes.get() / 1024);
    }
}
