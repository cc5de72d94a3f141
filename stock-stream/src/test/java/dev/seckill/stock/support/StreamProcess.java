package dev.seckill.stock.support;

import dev.seckill.kit.config.JitChoice;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** stock-stream as a real OS process (its own JVM, started from this test's classpath), so a test can SIGKILL it. */
public final class StreamProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private StreamProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static StreamProcess start(Map<String, String> env, Path log) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m"));
        command.addAll(JitChoice.jvmOptions()); // SECKILL_JIT, as ./seckill run reads it
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.seckill.stock.StockStreamApp"));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("SECKILL_STREAM_WARMUP_COMMANDS", "0"); // these tests time the app, not its warm-up
        pb.environment().putAll(env);
        try {
            return new StreamProcess(pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean isRunning() {
        try {
            return process.isAlive() && Files.readString(log).contains("stock-stream RUNNING");
        } catch (IOException e) {
            return false;
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no commit, no goodbye. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: the shutdown hook closes Kafka Streams cleanly. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) kill();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) kill();
    }
}
