package dev.seckill.system.containers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * podman (and podman-compose) as the container tests call them: with the project's engine settings
 * ({@code deploy/images/containers.conf}) unless {@code CONTAINERS_CONF} is set, each call's output kept whole.
 */
final class Podman {
    /**
     * The tag of every class here: {@code ./seckill test} runs them as a job of their own, beside the services' tests
     * (they wait on podman), while the rest of system-tests runs as a heavy job (the seckill launcher's TEST_JOBS).
     */
    static final String CONTAINERS = "containers";

    /** The repository's root: the first folder up from the working directory that holds deploy/images. */
    static final Path ROOT = root();

    private Podman() {}

    record Result(int exit, String output) {
        Result orThrow(String what) {
            if (exit != 0) throw new IllegalStateException(what + " failed (exit " + exit + "): " + tail(output));
            return this;
        }

        String trimmed() {
            return output.strip();
        }
    }

    /** Null when podman runs containers here, else one line saying why not. */
    static String unusable() {
        try {
            if (!"root".equals(System.getProperty("user.name")))
                return "the container tests need root's podman (a rootless container's address is not reachable from"
                        + " the host)";
            Result info =
                    run(Duration.ofSeconds(60), Map.of(), "podman", "info", "--format", "{{.Host.OCIRuntime.Name}}");
            if (info.exit() != 0) return "podman cannot run containers here: " + firstLine(info.output());
            Result compose = run(Duration.ofSeconds(30), Map.of(), "podman-compose", "version");
            if (compose.exit() != 0) return "podman-compose is not usable: " + firstLine(compose.output());
            Result mmdebstrap = run(Duration.ofSeconds(10), Map.of(), "sh", "-c", "command -v mmdebstrap");
            if (mmdebstrap.exit() != 0) return "no mmdebstrap to make the images' bases (apt-get install mmdebstrap)";
            return null;
        } catch (IOException e) {
            return "podman or podman-compose is not installed (./seckill test installs them as root)";
        }
    }

    /**
     * Null when a container of {@code image} starts here ({@code java -version} in it), else one line saying why not:
     * {@code podman info} answers where no container can start (no usable cgroups, no runtime).
     */
    static String cannotRun(String image) throws IOException {
        Result run = run(
                Duration.ofMinutes(1), Map.of(), "podman", "run", "--rm", "--entrypoint", "java", image, "-version");
        return run.exit() == 0 ? null : "podman cannot start a container here: " + firstLine(run.output());
    }

    /** A container's address on its network(s), as {@code podman inspect} gives it. */
    static String address(String container) throws IOException {
        return podman("inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", container)
                .orThrow("podman inspect " + container)
                .trimmed();
    }

    static Result podman(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return run(Duration.ofMinutes(2), Map.of(), cmd.toArray(String[]::new));
    }

    static Result run(Duration timeout, Map<String, String> env, String... cmd) throws IOException {
        Path out = Files.createTempFile("seckill-podman-", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(ROOT.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            pb.environment()
                    .putIfAbsent(
                            "CONTAINERS_CONF",
                            ROOT.resolve("deploy/images/containers.conf").toString());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly); // podman-compose's podman calls too
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish in " + timeout);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    static String tail(String s) {
        String t = s.strip();
        return t.length() <= 2000 ? t : "..." + t.substring(t.length() - 2000);
    }

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("deploy/images"))) p = p.getParent();
        if (p == null)
            throw new IllegalStateException(
                    "no deploy/images above " + Path.of("").toAbsolutePath());
        return p;
    }
}
