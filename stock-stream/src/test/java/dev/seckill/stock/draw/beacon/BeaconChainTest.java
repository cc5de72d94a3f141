package dev.seckill.stock.draw.beacon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chain's constants agree with drand's own definitions, and its clock counts rounds as drand does. */
@Tag("fast")
class BeaconChainTest {
    static final HexFormat HEX = HexFormat.of();
    static final BeaconChain Q = BeaconChain.QUICKNET;
    static final long GENESIS_MS = 1_692_803_367_000L;

    /**
     * drand's chain hash (drand's {@code chain.Info.Hash}): SHA-256 of the period (u32 big-endian), the genesis (i64
     * big-endian), the public key, the group hash and the beacon id, with quicknet's info as its relays serve it.
     */
    @Test
    void quicknetsHashIsDrandsHashOfItsKeyGenesisAndPeriod() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(ByteBuffer.allocate(4).putInt(Q.periodSeconds()).array());
        sha.update(ByteBuffer.allocate(8).putLong(Q.genesisSeconds()).array());
        sha.update(Q.publicKey());
        sha.update(HEX.parseHex("f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e"));
        sha.update("quicknet".getBytes(StandardCharsets.UTF_8));
        assertThat(HEX.formatHex(sha.digest())).isEqualTo(Q.hash());
        assertThat(Q.hash()).startsWith("52db9ba7");
        assertThat(Q.genesisSeconds()).isEqualTo(1_692_803_367L);
        assertThat(Q.periodSeconds()).isEqualTo(3);
        assertThat(Q.scheme()).isEqualTo("bls-unchained-g1-rfc9380");
    }

    @Test
    void roundsArePublishedAtGenesisPlusWholePeriods() {
        assertThat(Q.roundAt(GENESIS_MS - 1)).isZero();
        assertThat(Q.roundAt(0)).isZero();
        assertThat(Q.roundAt(GENESIS_MS)).isEqualTo(1);
        assertThat(Q.roundAt(GENESIS_MS + 2_999)).isEqualTo(1);
        assertThat(Q.roundAt(GENESIS_MS + 3_000)).isEqualTo(2);
        assertThat(Q.timeOfMs(1)).isEqualTo(GENESIS_MS);
        assertThat(Q.timeOfMs(123)).isEqualTo(GENESIS_MS + 122 * 3_000);
        assertThat(Q.roundAt(Q.timeOfMs(123))).isEqualTo(123);
        assertThat(Q.roundAt(Q.timeOfMs(123) - 1)).isEqualTo(122);
        assertThatThrownBy(() -> Q.timeOfMs(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFirstRoundAfterAnInstantIsPublishedStrictlyAfterIt() {
        long[] instants = {
            0,
            GENESIS_MS - 1,
            GENESIS_MS,
            GENESIS_MS + 1,
            Q.timeOfMs(5_000_000),
            Q.timeOfMs(5_000_000) - 1,
            1_800_000_000_123L
        };
        for (long t : instants) {
            long next = Q.firstRoundAfter(t);
            assertThat(Q.timeOfMs(next)).as("round %d after %d", next, t).isGreaterThan(t);
            if (next > 1)
                assertThat(Q.timeOfMs(next - 1)).as("round %d", next - 1).isLessThanOrEqualTo(t);
            assertThat(next).isEqualTo(Q.roundAt(t) + 1);
        }
    }

    @Test
    void aLocalChainsHashIsOurOwnDefinition() throws Exception {
        byte[] key = Q.publicKey(); // any G2 point will do
        BeaconChain local = BeaconChain.local(key, 1_700_000_000L, 1);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(key);
        sha.update(ByteBuffer.allocate(8).putLong(1_700_000_000L).array());
        sha.update(ByteBuffer.allocate(4).putInt(1).array());
        sha.update("bls-unchained-g1-rfc9380".getBytes(StandardCharsets.UTF_8));
        assertThat(local.hash()).isEqualTo(HEX.formatHex(sha.digest()));
        assertThat(BeaconChain.local(key, 1_700_000_000L, 2).hash()).isNotEqualTo(local.hash());
        assertThat(BeaconChain.local(key, 1_700_000_001L, 1).hash()).isNotEqualTo(local.hash());
        assertThat(local).isEqualTo(BeaconChain.local(Q.publicKey(), 1_700_000_000L, 1));
    }

    @Test
    void onlyWellFormedChainsOfTheSupportedSchemeAreMade() {
        byte[] key = Q.publicKey();
        assertThatThrownBy(() -> new BeaconChain(Q.hash(), key, 1, 3, "pedersen-bls-chained"))
                .hasMessageContaining("pedersen-bls-chained")
                .hasMessageContaining("bls-unchained-g1-rfc9380");
        assertThatThrownBy(() -> new BeaconChain(Q.hash(), new byte[48], 1, 3, BeaconChain.SCHEME))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BeaconChain("52DB", key, 1, 3, BeaconChain.SCHEME))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BeaconChain(Q.hash(), key, 1, 0, BeaconChain.SCHEME))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theChainHoldsItsOwnCopyOfTheKey() {
        Q.publicKey()[0] ^= 1;
        assertThat(Q.publicKeyHex()).startsWith("83cf0f28");
        assertThat(BeaconRoundTest.ROUND_123.verifies(Q)).isTrue();
    }
}
