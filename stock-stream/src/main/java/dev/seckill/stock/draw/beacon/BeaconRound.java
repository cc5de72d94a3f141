package dev.seckill.stock.draw.beacon;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One round of a beacon as published: its number ({@code round}, from 1) and the chain's {@code signature} of it (a
 * BLS12-381 G1 point, 48 bytes compressed, for {@value BeaconChain#SCHEME}). The round's randomness is derived from the
 * signature, never taken from whoever served it; nothing here is trusted before {@link #verifies(BeaconChain)}.
 */
public record BeaconRound(long round, byte[] signature) {
    private static final HexFormat HEX = HexFormat.of();

    public BeaconRound {
        Objects.requireNonNull(signature, "signature");
        signature = signature.clone();
    }

    /** A copy of the signature. */
    @Override
    public byte[] signature() {
        return signature.clone();
    }

    /** The signature in hex, as drand's API writes it. */
    public String signatureHex() {
        return HEX.formatHex(signature);
    }

    /** The round's randomness, as drand defines it: {@code SHA-256(signature)}. */
    public byte[] randomness() {
        return Bls.sha256(signature);
    }

    /**
     * Whether the signature is {@code chain}'s signature of this round: the message {@code SHA-256(round as u64
     * big-endian)} hashed to G1 with DST {@code BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_}, checked against the
     * chain's G2 public key. False, never an exception, for a round below 1, malformed bytes, a point not on the curve
     * or not in its group. A BLS pairing check: about a millisecond.
     */
    public boolean verifies(BeaconChain chain) {
        return round >= 1 && Bls.verify(chain.publicKey(), round, signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BeaconRound r && round == r.round && Arrays.equals(signature, r.signature);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(round) * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "BeaconRound[" + round + ", " + signatureHex() + "]";
    }
}
