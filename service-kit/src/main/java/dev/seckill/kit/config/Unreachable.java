package dev.seckill.kit.config;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A required server does not answer. Its message is the one readable line an operator sees, naming the
 * component and the address: mains print it and exit 2 instead of a stack trace.
 */
public final class Unreachable extends RuntimeException {
    public Unreachable(String component, String address, String hint) {
        super(component + " is not reachable at " + address + (hint == null ? "" : " (" + hint + ")"));
    }

    /** A service's start in progress: until when a server that does not answer yet is waited for. */
    private record StartWait(long untilNanos, Duration budget, Consumer<String> note) {}

    private static volatile StartWait startWait;

    private static final Duration LONGEST_WAIT = Duration.ofDays(365);

    /**
     * Until the returned handle is closed, or {@code budget} has passed, {@link #requireTcp} waits for a server that
     * does not accept connections yet (saying once through {@code note} what it waits for) instead of throwing at
     * once. A service's start ({@code ServiceMain}); a zero budget waits for nothing.
     */
    public static AutoCloseable waitAtStart(Duration budget, Consumer<String> note) {
        Duration bounded =
                budget.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : budget; // nanoTime arithmetic stays exact
        StartWait wait = new StartWait(System.nanoTime() + bounded.toNanos(), bounded, note);
        if (!bounded.isZero() && !bounded.isNegative()) startWait = wait;
        return () -> {
            if (startWait == wait) startWait = null;
        };
    }

    /**
     * Throws when nothing accepts TCP connections at {@code host:port} (the first of a comma-separated list); during a
     * service's start ({@link #waitAtStart}), only once its wait is over.
     */
    public static void requireTcp(String component, String hostPort, String hint) {
        String first = hostPort.split(",")[0].trim();
        int colon = first.lastIndexOf(':');
        String host = first.substring(0, colon);
        int port = Integer.parseInt(first.substring(colon + 1));
        long pauseMs = 250;
        boolean said = false;
        while (!accepts(host, port)) {
            StartWait wait = startWait;
            long left = wait == null ? 0 : wait.untilNanos() - System.nanoTime();
            if (left <= 0) throw new Unreachable(component, first, hint);
            if (!said) {
                wait.note()
                        .accept("waiting for " + component + " at " + first + " (up to "
                                + inSecondsOrMillis(wait.budget()) + " from the start)");
                said = true;
            }
            try {
                Thread.sleep(Math.min(pauseMs, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unreachable(component, first, hint);
            }
            pauseMs = Math.min(2 * pauseMs, 2000);
        }
    }

    private static String inSecondsOrMillis(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static boolean accepts(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** host:port of a jdbc:mysql://host:port/db URL. */
    public static String jdbcHostPort(String jdbcUrl) {
        URI u = URI.create(jdbcUrl.substring("jdbc:".length()));
        return u.getHost() + ":" + (u.getPort() < 0 ? 3306 : u.getPort());
    }
}
