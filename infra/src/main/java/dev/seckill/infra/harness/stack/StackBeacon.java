package dev.seckill.infra.harness.stack;

import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.ServiceProcess;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The {@link ServiceStack}'s draw beacon: this machine's local beacon, a process beside the services. */
final class StackBeacon {
    private StackBeacon() {}

    /** Where the stack's local draw beacon serves (the chain of {@code <home>/services/draw-beacon.key}). */
    static final int PORT = 9408;

    /**
     * The stack's draw beacon: this machine's local beacon as a process of its own (its key kept beside the logs), so
     * that the stack's stream, a drill and {@code draw verify} see one chain; one already answering is used.
     */
    static URI start(Settings settings, Map<String, String> env, Path dir, PrintStream out)
            throws IOException, InterruptedException {
        URI url = URI.create("http://127.0.0.1:" + PORT);
        if (!ServerProcess.answers("127.0.0.1", PORT)) {
            Process p = ServiceProcess.launch(
                    "dev.seckill.stock.draw.beacon.LocalBeacon",
                    List.of(),
                    List.of(
                            "--port",
                            Integer.toString(PORT),
                            "--key-file",
                            DrawBeacons.keyFile(settings).toString()),
                    ServiceProcess.Environment.ONLY_GIVEN,
                    env,
                    dir.resolve("draw-beacon.log"));
            Files.writeString(dir.resolve("draw-beacon.pid"), Long.toString(p.pid()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!ServerProcess.answers("127.0.0.1", PORT)) {
                if (!p.isAlive())
                    throw new IllegalStateException(
                            "the draw beacon exited; its log: " + dir.resolve("draw-beacon.log"));
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException(
                            "the draw beacon did not answer; its log: " + dir.resolve("draw-beacon.log"));
                TimeUnit.MILLISECONDS.sleep(100); // polling another process
            }
            out.printf(
                    "%-13s %s  started (pid %d, log %s)%n",
                    "draw-beacon", url, p.pid(), dir.resolve("draw-beacon.log"));
        } else out.printf("%-13s %s  answers (using it)%n", "draw-beacon", url);
        return url;
    }
}
