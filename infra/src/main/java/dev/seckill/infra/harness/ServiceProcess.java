package dev.seckill.infra.harness;

import dev.seckill.kit.config.JitChoice;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One service as a fresh JVM of its own, as {@code ./seckill run <service>} starts it (same classpath as this JVM, the
 * launcher's GC flags), configured by {@code SECKILL_*} variables; its output goes to a log file.
 */
public final class ServiceProcess implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final Process process;
    private final Path log;
    private final long startedNanos = System.nanoTime();

    private ServiceProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    public static ServiceProcess start(
            String name, String mainClass, List<String> jvmOptions, Map<String, String> env, Path log)
            throws IOException {
        return start(name, mainClass, jvmOptions, List.of(), env, log);
    }

    /** The JVM runs {@code mainClass} with {@code args}, from this JVM's environment; its output goes to {@code log}. */
    public static ServiceProcess start(
            String name,
            String mainClass,
            List<String> jvmOptions,
            List<String> args,
            Map<String, String> env,
            Path log)
            throws IOException {
        return new ServiceProcess(name, launch(mainClass, jvmOptions, args, Environment.INHERITED, env, log), log);
    }

    /** Where a child JVM's environment comes from: this JVM's plus the variables given, or only the variables given. */
    public enum Environment {
        INHERITED,
        ONLY_GIVEN
    }

    /**
     * The one way infra starts a JVM of its own: this JVM's java and classpath, {@code jvmOptions}, {@code mainClass}
     * with {@code args}, its environment as {@code environment} says plus {@code env}; its output and its log lines
     * appended to {@code log}, no input.
     */
    public static Process launch(
            String mainClass,
            List<String> jvmOptions,
            List<String> args,
            Environment environment,
            Map<String, String> env,
            Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JitChoice.jvmOptions()); // SECKILL_JIT, as ./seckill run reads it
        command.addAll(jvmOptions);
        command.add("-DSECKILL_LOG_FILE=" + log.toAbsolutePath()); // its log lines beside its output
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (environment == Environment.ONLY_GIVEN) pb.environment().clear();
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * A pipeline service ({@code stock-stream}, {@code order-writer}, {@code gateway}, {@code reconciler}) started
     * exactly as {@code ./seckill run <service>} starts it for a user — its JVM flags, classpath and class-data archive
     * — configured by {@code env}; its output and log lines go to {@code log}.
     */
    public static ServiceProcess seckillRun(String name, String service, Map<String, String> env, Path log)
            throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(script().toString(), "run", service)
                .directory(script().getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // what this tool's own environment says of one process must not reach several: an exported instance id would
        // give
        // every instance the same (their transactions fencing each other), the CLI's JVM options are the CLI's
        pb.environment()
                .keySet()
                .removeAll(List.of("SECKILL_STREAM_INSTANCE_ID", "SECKILL_WRITER_INSTANCE_ID", "SECKILL_JAVA_OPTS"));
        pb.environment().putAll(env);
        pb.environment().put("SECKILL_LOG_FILE", log.toAbsolutePath().toString()); // its log lines beside its output
        pb.environment()
                .put("SECKILL_NO_BUILD", "1"); // this tree is built: a build under a running test would break it
        return new ServiceProcess(name, pb.start(), log);
    }

    /** The project's {@code seckill} script, found from the working directory up (the CLI runs in it, tests below it). */
    static Path script() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("seckill");
            if (Files.isExecutable(candidate) && Files.isDirectory(dir.resolve("infra"))) return candidate;
        }
        throw new IllegalStateException(
                "no ./seckill script above " + Path.of("").toAbsolutePath());
    }

    /** Polls {@code GET /health} until it answers 200; returns the milliseconds since the JVM was started. */
    public long awaitHealthy(int port, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                .timeout(Duration.ofSeconds(2))
                .build();
        while (true) {
            if (!process.isAlive())
                throw new IllegalStateException(name + " exited (" + process.exitValue() + "); see " + log);
            try {
                if (HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - startedNanos) / 1_000_000;
                }
            } catch (IOException notListeningYet) {
                // the JVM is still starting
            }
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(name + " not healthy in " + timeout + "; see " + log);
            TimeUnit.MILLISECONDS.sleep(100); // polling a process we do not share memory with
        }
    }

    /** The line the service printed when it became ready ("… READY: what the warm-up did"), or "". */
    public String readyLine() throws IOException {
        return Files.readAllLines(log).stream()
                .filter(l -> l.contains(" READY"))
                .findFirst()
                .orElse("");
    }

    /**
     * A signal by name ({@code STOP}: the process freezes as a long GC pause or a starved process would, its threads and
     * its heartbeats with it; {@code CONT}: it goes on where it stopped).
     */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        if (kill.waitFor() != 0)
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                            .strip());
    }

    /** SIGKILL: the process dies at once, whatever it was doing (no shutdown hook runs). */
    public void sigkill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM (the service closes cleanly), SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
