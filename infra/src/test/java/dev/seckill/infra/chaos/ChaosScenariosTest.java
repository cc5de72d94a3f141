package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import dev.seckill.infra.chaos.ChaosServers.Kind;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Redis and requestId scenarios' parts that need no pipeline (a full run is {@code ./seckill chaos}, minutes): the
 * scenarios that break Redis own theirs, the stream's rebuild lines are read per goods and cause, a reuse refusal is
 * not a second outcome, and the failover proxy's switch and stall. Under a second.
 */
@Tag("fast")
class ChaosScenariosTest {
    @Test
    void theRedisScenariosBreakOnlyARedisOfTheirOwnAndIdReuseNeedsNone() {
        Map<String, ChaosScenario> byName =
                ChaosScenario.ALL.stream().collect(Collectors.toMap(ChaosScenario::name, s -> s));
        assertThat(byName).hasSize(ChaosScenario.ALL.size()); // names are unique
        for (String name : List.of("redis-stale", "redis-wipe-ops", "redis-failover"))
            assertThat(byName.get(name).owns()).as(name).contains(Kind.REDIS);
        assertThat(byName.get("redis-failover").owns()).contains(Kind.REDIS_REPLICA);
        assertThat(byName.get("id-reuse").owns()).isEmpty();
        assertThat(byName.get("writer-reorder").owns())
                .as("the machine's servers; it kills a service")
                .isEmpty();
    }

    @Test
    void rebuildLinesAreCountedPerGoodsAndCause() {
        String line = "13:41:46.183 WARN  [ns.stock-stream-StreamThread-1] d.s.stock.decision.Rebuilds trace= - goods"
                + " %d: Redis keys at marker '%s', the ledger fold at '153' (%s): rebuilt from the fold (149 buyers, 151"
                + " units left) in 12 ms before deciding again";
        Stream<String> lines = Stream.of(
                String.format(line, 1001, "148", "lost"),
                String.format(line, 1001, "", "lost"),
                String.format(line, 1001, "160", "ahead"),
                String.format(line, 1002, "", "lost"),
                "13:41:47.000 INFO  something else about goods 1001");

        assertThat(StreamLog.count(lines, 1001)).isEqualTo(Map.of("lost", 2, "ahead", 1));
    }

    @Test
    void aReuseRefusalIsAnotherPurchasesAnswer() throws Exception {
        List<JsonNode> outcomes = List.of(
                json("{\"requestId\":\"r\",\"outcome\":\"SUCCESS\"}"),
                json("{\"requestId\":\"r\",\"outcome\":\"REJECTED\",\"reason\":\"invalid\",\"detail\":\"reused\"}"),
                json("{\"requestId\":\"q\",\"outcome\":\"REJECTED\",\"reason\":\"invalid\"}"));
        assertThat(SaleRecords.decisions(outcomes))
                .isEqualTo(Map.of("r", List.of("SUCCESS"), "q", List.of("REJECTED")));
    }

    @Test
    void theFailoverProxyMovesToAnotherServerAndAStallHoldsTheBytes() throws Exception {
        try (ServerSocket first = echo("first");
                ServerSocket second = echo("second");
                RedisProxy proxy = new RedisProxy(first.getLocalPort())) {
            assertThat(roundTrip(proxy.port(), 2_000)).isEqualTo("first:ping");

            proxy.stall(true);
            assertThat(roundTrip(proxy.port(), 300)).isNull(); // nothing through while stalled
            proxy.switchTo(second.getLocalPort()); // resumes, on the other server
            assertThat(roundTrip(proxy.port(), 2_000)).isEqualTo("second:ping");
        }
    }

    private static JsonNode json(String s) throws Exception {
        return Json.MAPPER.readTree(s);
    }

    /** A server answering each read with {@code name:} and what it read. */
    private static ServerSocket echo(String name) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    byte[] buf = new byte[64];
                    int n = s.getInputStream().read(buf);
                    if (n > 0)
                        s.getOutputStream()
                                .write((name + ":" + new String(buf, 0, n, StandardCharsets.UTF_8))
                                        .getBytes(StandardCharsets.UTF_8));
                } catch (Exception closed) {
                    // the test is over
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return server;
    }

    /** "ping" through the proxy; the answer, or null when none came within {@code timeoutMs}. */
    private static String roundTrip(int port, int timeoutMs) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            out.write("ping".getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64];
            int n = in.read(buf);
            return n < 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
        } catch (SocketTimeoutException e) {
            return null;
        }
    }
}
