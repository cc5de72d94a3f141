package dev.seckill.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** Small helpers shared by the launchers of local servers. */
public final class ServerProcess {
    private static final Set<Path> TEMP_DIRS = ConcurrentHashMap.newKeySet();

    static {
        // a server on a spare port keeps its data in a folder of its own (a MariaDB one is ~114 MB): gone with the JVM
        // that made it, whether or not the server was closed, so a day of tests and drills leaves nothing in /tmp
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> TEMP_DIRS.forEach(ServerProcess::deleteTree), "seckill-temp-dirs"));
    }

    private ServerProcess() {}

    /** A fresh temporary folder, deleted with everything in it when this JVM exits. */
    public static Path tempDir(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        TEMP_DIRS.add(dir);
        return dir;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // already gone, or a file still being written by a server that outlived us: nothing more to do at exit
        }
    }

    /** True when something accepts TCP connections at host:port within 500 ms. */
    public static boolean answers(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Ports this JVM handed out: a port is free once its probe socket closes, and the next probe may get it again. */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A loopback port no one listens on, never one this JVM handed out before (two asked for one server — a broker's
     * client and controller listeners — were sometimes the same, and the broker refused to start).
     */
    public static int freePort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
                if (HANDED_OUT.add(s.getLocalPort())) return s.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException("no free port", e);
            }
        }
        throw new IllegalStateException("no free port that was not handed out before, in 100 tries");
    }

    /** Polls {@code ready} every 100 ms until it holds, the process dies, or the timeout passes. */
    public static void awaitReady(String what, BooleanSupplier ready, Process process, Duration timeout, Path log) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ready.getAsBoolean()) return;
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue() + tail(log));
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100); // polling a readiness probe, not synchronising a test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what);
            }
        }
        throw new IllegalStateException(what + " did not become ready in " + timeout.toSeconds() + " s" + tail(log));
    }

    /** Runs a command to completion, failing with its output when it exits non-zero. */
    public static String run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(describe(command) + " timed out");
            }
            String text = new String(out);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(describe(command) + " failed (" + p.exitValue() + "): " + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command.get(0));
        }
    }

    /** The absolute path of an executable on PATH or in the sbin folders, or null. */
    public static Path which(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/local/sbin";
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** Finds {@code binary}; when missing and we are root, installs Debian {@code pkg} and says so on stdout. */
    public static Path requireBinary(String binary, String pkg) {
        Path p = which(binary);
        if (p != null) return p;
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new IllegalStateException(binary + " is not installed: run `sudo apt-get install -y " + pkg + "`");
        }
        System.out.println("installing " + pkg + " (apt-get install -y " + pkg + ") because " + binary + " is missing");
        run(List.of("apt-get", "update", "-qq"), Duration.ofMinutes(5));
        run(
                List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", pkg),
                Duration.ofMinutes(10));
        p = which(binary);
        if (p == null) throw new IllegalStateException("installed " + pkg + " but " + binary + " is still missing");
        return p;
    }

    /** The command without its (long) classpath, for messages. */
    static String describe(List<String> command) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < command.size(); i++) {
            if (i > 0 && "-cp".equals(command.get(i - 1))) b.append(" <classpath>");
            else b.append(i == 0 ? "" : " ").append(command.get(i));
        }
        return b.toString();
    }

    static String tail(Path log) {
        if (log == null || !Files.exists(log)) return "";
        try {
            List<String> lines = Files.readAllLines(log);
            return "; last log lines of " + log + ":\n  "
                    + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }
}
