package dev.seckill.stock.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import dev.seckill.stock.StockStreamSettings;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;

/** What a lease connection reads of {@code CLIENT LIST}, which names Redis would take, and the heartbeat leases set. */
@Tag("fast")
class LeaseConnectionTest {
    static final String PREFIX = "app:stream:lease:stock-stream:";

    @Test
    void theInstancesAreReadFromTheNamesUnderThePrefix_withTheirClientIds_andNothingElse() {
        String list = String.join(
                "\n",
                "id=3 addr=127.0.0.1:5000 laddr=127.0.0.1:6379 fd=8 name=" + PREFIX + "host-a-9101 age=4 idle=0",
                "id=4 addr=127.0.0.1:5001 laddr=127.0.0.1:6379 fd=9 name= age=9 idle=0 flags=N",
                "id=5 addr=127.0.0.1:5002 laddr=127.0.0.1:6379 fd=10 name=" + PREFIX + "host-b-9102 age=1",
                "id=6 addr=127.0.0.1:5003 laddr=127.0.0.1:6379 fd=11 name=other:stream:lease:x:host-c age=1",
                "id=7 addr=127.0.0.1:5004 laddr=127.0.0.1:6379 fd=12 name=x" + PREFIX + "host-d age=1",
                "id=8 addr=127.0.0.1:5005 laddr=127.0.0.1:6379 fd=13 name=" + PREFIX,
                "");
        assertThat(LeaseConnection.connectedPeers(list, PREFIX))
                .containsExactlyInAnyOrderEntriesOf(Map.of("host-a-9101", 3L, "host-b-9102", 5L));
    }

    @Test
    void aLeaseNamesTheClientItWasRenewedOver() {
        assertThat(LeaseConnection.clientIdOf("1796474694175/42")).isEqualTo(42);
        assertThat(LeaseConnection.clientIdOf("1796474694175"))
                .as("renewed without its connection")
                .isEqualTo(-1);
        assertThat(LeaseConnection.clientIdOf("1/x")).isEqualTo(-1);
        assertThat(LeaseConnection.clientIdOf(null)).isEqualTo(-1);
    }

    @Test
    void onlyARefusalForGoodSwitchesTheListingOff() {
        assertThat(LeaseConnection.refusal(
                        new JedisDataException("NOPERM User x has no permissions to run 'client|list'")))
                .isTrue();
        assertThat(LeaseConnection.refusal(new JedisDataException("ERR unknown command 'CLIENT'")))
                .isTrue();
        assertThat(LeaseConnection.refusal(new JedisDataException("BUSY Redis is busy running a script")))
                .isFalse();
    }

    @Test
    void aNameWithASpaceOrBeyondAsciiIsNotOneRedisTakes() {
        assertThat(LeaseConnection.nameable(PREFIX + "pod-0")).isTrue();
        assertThat(LeaseConnection.nameable(PREFIX + "pod 0")).isFalse();
        assertThat(LeaseConnection.nameable(PREFIX + "pöd")).isFalse();
        assertThat(LeaseConnection.nameable("")).isFalse();
    }

    @Test
    void withLeasesTheStreamHeartbeatsEvery100Ms_soASurvivorHearsOfARemovalAtOnce() {
        Settings defaults = Settings.with(Map.of());
        assertThat(StockStreamSettings.heartbeatMs(defaults, 2_000, "pod-0")).isEqualTo(100);
        assertThat(StockStreamSettings.heartbeatMs(defaults, 300, "pod-0")).isEqualTo(100);
        assertThat(StockStreamSettings.heartbeatMs(defaults, 2_000, ""))
                .as("no instance id: no lease, a fifth of the session")
                .isEqualTo(400);
        assertThat(StockStreamSettings.heartbeatMs(Settings.with(Map.of("stream.lease.ms", "0")), 2_000, "pod-0"))
                .isEqualTo(400);
        assertThat(StockStreamSettings.heartbeatMs(
                        Settings.with(Map.of("stream.static.membership", "false")), 2_000, "pod-0"))
                .isEqualTo(400);
    }
}
