package dev.seckill.stock.draw.beacon;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import supranational.blst.P1_Affine;

/**
 * Real quicknet rounds verify offline under {@link BeaconChain#QUICKNET}, and nothing else does: another round, a
 * flipped bit, a cut signature, garbage, a curve point outside the group, another key.
 *
 * <p>The vectors: round 123 from noislabs/drand-verify, {@code src/verify.rs} (test {@code
 * verify_works_for_g1g2_swapped_rfc}, taken from {@code https://api3.drand.sh/52db9ba7…c84e971/public/123}), its
 * randomness as the Nois contracts record it; round 657413 from mcdcam/python-drand-verify's {@code README.md}
 * ({@code verify_quicknet}), with the randomness it prints.
 */
@Tag("fast")
class BeaconRoundTest {
    static final HexFormat HEX = HexFormat.of();

    static final BeaconRound ROUND_123 = new BeaconRound(
            123,
            HEX.parseHex("b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486"
                    + "d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"));
    static final String RANDOMNESS_123 = "fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc";

    static final BeaconRound ROUND_657413 = new BeaconRound(
            657_413,
            HEX.parseHex("b713718a38ae728dfd477991af2822e08d2f305e47718cef"
                    + "9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"));
    static final String RANDOMNESS_657413 = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587";

    @Test
    void realQuicknetRoundsVerifyAndTheirRandomnessIsTheHashOfTheSignature() {
        assertThat(ROUND_123.verifies(BeaconChain.QUICKNET)).isTrue();
        assertThat(ROUND_657413.verifies(BeaconChain.QUICKNET)).isTrue();
        assertThat(HEX.formatHex(ROUND_123.randomness())).isEqualTo(RANDOMNESS_123);
        assertThat(HEX.formatHex(ROUND_657413.randomness())).isEqualTo(RANDOMNESS_657413);
    }

    @Test
    void theSameSignatureUnderAnotherRoundDoesNotVerify() {
        assertThat(new BeaconRound(124, ROUND_123.signature()).verifies(BeaconChain.QUICKNET))
                .isFalse();
        assertThat(new BeaconRound(122, ROUND_123.signature()).verifies(BeaconChain.QUICKNET))
                .isFalse();
        assertThat(new BeaconRound(657_413, ROUND_123.signature()).verifies(BeaconChain.QUICKNET))
                .isFalse();
        assertThat(new BeaconRound(0, ROUND_123.signature()).verifies(BeaconChain.QUICKNET))
                .isFalse();
    }

    @Test
    void aFlippedBitDoesNotVerify() {
        for (int bit : new int[] {0, 7, 100, 383}) { // 383: the top bit, the compression flag
            byte[] flipped = ROUND_123.signature();
            flipped[flipped.length - 1 - bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(new BeaconRound(123, flipped).verifies(BeaconChain.QUICKNET))
                    .as("bit %d flipped", bit)
                    .isFalse();
        }
    }

    @Test
    void truncatedOrLongerSignaturesDoNotVerify() {
        byte[] signature = ROUND_123.signature();
        assertThat(new BeaconRound(123, Arrays.copyOf(signature, 47)).verifies(BeaconChain.QUICKNET))
                .isFalse();
        assertThat(new BeaconRound(123, Arrays.copyOf(signature, 49)).verifies(BeaconChain.QUICKNET))
                .isFalse();
        assertThat(new BeaconRound(123, new byte[0]).verifies(BeaconChain.QUICKNET))
                .isFalse();
    }

    @Test
    void garbageBytesDoNotVerifyAndThrowNothing() {
        byte[] ones = new byte[48];
        Arrays.fill(ones, (byte) 0xff);
        byte[] uncompressedFlagOff = ROUND_123.signature();
        uncompressedFlagOff[0] &= 0x7f;
        byte[] infinity = new byte[48];
        infinity[0] = (byte) 0xc0;
        for (byte[] garbage : new byte[][] {ones, new byte[48], uncompressedFlagOff, infinity, new byte[96]}) {
            assertThat(new BeaconRound(123, garbage).verifies(BeaconChain.QUICKNET))
                    .as(HEX.formatHex(garbage))
                    .isFalse();
        }
    }

    @Test
    void aCurvePointOutsideTheGroupDoesNotVerify() {
        byte[] outside = pointOnCurveOutsideG1();
        P1_Affine point = new P1_Affine(outside);
        assertThat(point.on_curve()).isTrue();
        assertThat(point.in_group()).isFalse();
        assertThat(new BeaconRound(123, outside).verifies(BeaconChain.QUICKNET)).isFalse();
    }

    @Test
    void aQuicknetRoundDoesNotVerifyUnderAnotherKey() {
        byte[] ikm = new byte[32];
        Arrays.fill(ikm, (byte) 7);
        BeaconChain other = BeaconChain.local(Bls.publicKey(Bls.keyFrom(ikm)), 1_692_803_367L, 3);
        assertThat(ROUND_123.verifies(other)).isFalse();
        assertThat(new BeaconRound(123, Bls.sign(Bls.keyFrom(ikm), 123)).verifies(other))
                .isTrue();
    }

    @Test
    void theRoundHoldsItsOwnCopyOfTheSignature() throws Exception {
        byte[] signature = ROUND_123.signature();
        BeaconRound round = new BeaconRound(123, signature);
        signature[5] ^= 1;
        round.signature()[6] ^= 1;
        assertThat(round).isEqualTo(ROUND_123);
        assertThat(round.randomness())
                .isEqualTo(MessageDigest.getInstance("SHA-256").digest(ROUND_123.signature()));
    }

    /**
     * A compressed G1 encoding of a point on y² = x³ + 4 over BLS12-381's field that is not in the prime-order group
     * (the curve's cofactor is about 2^126: almost every point on it is outside): the first x whose right side is a
     * square.
     */
    static byte[] pointOnCurveOutsideG1() {
        BigInteger p = new BigInteger(
                "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
        for (BigInteger x = BigInteger.ONE; ; x = x.add(BigInteger.ONE)) {
            BigInteger right = x.pow(3).add(BigInteger.valueOf(4)).mod(p);
            BigInteger y = right.modPow(p.add(BigInteger.ONE).shiftRight(2), p); // p = 3 mod 4
            if (!y.multiply(y).mod(p).equals(right)) continue;
            byte[] bytes = new byte[48];
            byte[] xBytes = x.toByteArray();
            System.arraycopy(xBytes, 0, bytes, 48 - xBytes.length, xBytes.length);
            bytes[0] |= (byte) 0x80; // compressed
            if (y.compareTo(p.subtract(y)) > 0) bytes[0] |= 0x20; // the larger y
            return bytes;
        }
    }
}
