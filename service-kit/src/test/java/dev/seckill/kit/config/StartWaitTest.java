package dev.seckill.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A service's start waits for its servers ({@link Unreachable#waitAtStart}): a server that starts accepting within the
 * wait is used, one that does not is the same one line as without a wait, only later; outside a start, or with a zero
 * wait, nothing waits.
 */
@Tag("fast")
class StartWaitTest {
    final List<String> notes = new CopyOnWriteArrayList<>();

    @Test
    void givenAServerThatStartsDuringTheWait_whenRequired_thenTheStartGoesOnOnceItAcceptsHavingSaidSoOnce()
            throws Exception {
        int port = freePort();
        CompletableFuture<ServerSocket> late = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                CompletableFuture.delayedExecutor(700, TimeUnit.MILLISECONDS));
        long started = System.nanoTime();
        try (AutoCloseable waiting = Unreachable.waitAtStart(Duration.ofSeconds(20), notes::add)) {
            Unreachable.requireTcp("Kafka", "127.0.0.1:" + port, "hint");
        } finally {
            late.get(10, TimeUnit.SECONDS).close();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("waited for the server")
                .isGreaterThanOrEqualTo(Duration.ofMillis(600))
                .isLessThan(Duration.ofSeconds(10));
        assertThat(notes).containsExactly("waiting for Kafka at 127.0.0.1:" + port + " (up to 20 s from the start)");
    }

    @Test
    void givenNoServerForTheWholeWait_whenRequired_thenTheOneLineOnceTheWaitIsOver() throws Exception {
        int port = freePort();
        long started = System.nanoTime();
        try (AutoCloseable waiting = Unreachable.waitAtStart(Duration.ofMillis(800), notes::add)) {
            assertThatThrownBy(() -> Unreachable.requireTcp("MySQL", "127.0.0.1:" + port, "start it"))
                    .isInstanceOf(Unreachable.class)
                    .hasMessage("MySQL is not reachable at 127.0.0.1:" + port + " (start it)");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(800));
        assertThat(notes).hasSize(1);
    }

    @Test
    void givenNoWaitOrAStartThatEnded_whenRequired_thenItFailsAtOnceAndSaysNothing() throws Exception {
        int port = freePort();
        try (AutoCloseable none = Unreachable.waitAtStart(Duration.ZERO, notes::add)) {
            assertThatThrownBy(() -> Unreachable.requireTcp("Redis", "127.0.0.1:" + port, null))
                    .isInstanceOf(Unreachable.class);
        }
        Unreachable.waitAtStart(Duration.ofMinutes(5), notes::add).close();
        long started = System.nanoTime();
        assertThatThrownBy(() -> Unreachable.requireTcp("Redis", "127.0.0.1:" + port, null))
                .isInstanceOf(Unreachable.class)
                .hasMessage("Redis is not reachable at 127.0.0.1:" + port);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        assertThat(notes).isEmpty();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
