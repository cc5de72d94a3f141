package dev.seckill.stock.draw.beacon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sources a deployment names: quicknet over drand's relays, local read from its beacon, nothing else. */
@Tag("fast")
class BeaconsTest {
    @TempDir
    Path dir;

    @Test
    void anUnknownNameIsOneReadableLineNamingTheChoices() {
        for (String name : new String[] {"nonsense", "", "QuickNet", null}) {
            assertThatThrownBy(() -> Beacons.from(name, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("unknown beacon \"" + name + "\": expected quicknet or local");
        }
    }

    @Test
    void quicknetUsesDrandsRelaysUnlessGivenOthers() {
        try (DrandRelays quicknet = Beacons.from("quicknet", List.of())) {
            assertThat(quicknet.chain()).isEqualTo(BeaconChain.QUICKNET);
            assertThat(quicknet.relays())
                    .containsExactly(
                            URI.create("https://api.drand.sh"),
                            URI.create("https://api2.drand.sh"),
                            URI.create("https://api3.drand.sh"),
                            URI.create("https://drand.cloudflare.com"));
        }
        List<URI> mine = List.of(URI.create("http://127.0.0.1:9"));
        try (DrandRelays quicknet = Beacons.from("quicknet", mine)) {
            assertThat(quicknet.relays()).isEqualTo(mine);
        }
    }

    @Test
    void localReadsItsChainFromTheFirstRelayThatAnswers() throws Exception {
        try (LocalBeacon beacon = LocalBeacon.start(dir.resolve("key.json"), 0, 1);
                DrandRelays local = Beacons.from("local", List.of(FakeRelay.downUrl(), beacon.url()))) {
            assertThat(local.chain()).isEqualTo(beacon.chain());
            await().atMost(Duration.ofSeconds(15)).until(() -> local.round(1) instanceof Fetch.Ready);
            assertThat(local.round(1)).isEqualTo(new Fetch.Ready(beacon.sign(1)));
        }
    }

    @Test
    void localNeedsARelayThatAnswersWithItsOwnChain() throws Exception {
        assertThatThrownBy(() -> Beacons.from("local", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs its URL");
        URI down = FakeRelay.downUrl();
        assertThatThrownBy(() -> Beacons.from("local", List.of(down)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("no local beacon answered: relay " + down + " unreachable");
        try (LocalBeacon beacon = LocalBeacon.start(dir.resolve("key.json"), 0, 1);
                FakeRelay forger = new FakeRelay(path -> new FakeRelay.Reply(
                        200,
                        "{\"public_key\":\"" + beacon.chain().publicKeyHex() + "\",\"period\":1,\"genesis_time\":"
                                + beacon.chain().genesisSeconds() + ",\"hash\":\"" + "ab".repeat(32)
                                + "\",\"schemeID\":\"bls-unchained-g1-rfc9380\"}"))) {
            assertThatThrownBy(() -> Beacons.localChainFrom(forger.url()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ab".repeat(32))
                    .hasMessageContaining(beacon.chain().hash());
        }
    }
}
