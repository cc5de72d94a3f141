package dev.seckill.stock.draw.beacon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A public randomness beacon's chain: who signs its rounds and when each is published. It holds the chain's
 * {@code hash} (hex, the name under which relays serve it), the group {@code publicKey} (a BLS12-381 G2 point, 96
 * bytes compressed), the {@code genesisSeconds} at which round 1 was published, the {@code periodSeconds} between two
 * rounds and the signing {@code scheme}, always {@value #SCHEME} (the only one this package verifies).
 *
 * <p>Round {@code r} is published at {@code genesis + (r - 1) * period} seconds; rounds start at 1.
 */
public record BeaconChain(String hash, byte[] publicKey, long genesisSeconds, int periodSeconds, String scheme) {
    /** drand's scheme of unchained BLS signatures on G1 with RFC 9380 hash-to-curve: the one {@link #QUICKNET} uses. */
    public static final String SCHEME = "bls-unchained-g1-rfc9380";

    private static final HexFormat HEX = HexFormat.of();

    /**
     * drand's quicknet, run by the League of Entropy: a round every 3 s since 2023-08-23T15:09:27Z. Its chain info as
     * its relays serve it at {@code /52db9ba7…/info}: group hash {@code f477d5c8…1c5d3e}, beacon id {@code quicknet};
     * drand's own chain hash of those ({@code SHA-256(period u32 || genesis i64 || public key || group hash || id)})
     * is the {@code hash} below (BeaconChainTest checks it).
     */
    public static final BeaconChain QUICKNET = new BeaconChain(
            "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
            HEX.parseHex("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c"
                    + "8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb"
                    + "5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"),
            1_692_803_367L,
            3,
            SCHEME);

    public BeaconChain {
        Objects.requireNonNull(hash, "hash");
        Objects.requireNonNull(publicKey, "publicKey");
        Objects.requireNonNull(scheme, "scheme");
        if (!hash.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a chain hash is 64 lower-case hex digits, not \"" + hash + "\"");
        }
        if (publicKey.length != Bls.PUBLIC_KEY_BYTES) {
            throw new IllegalArgumentException("a chain's public key is a compressed G2 point of "
                    + Bls.PUBLIC_KEY_BYTES + " bytes, not " + publicKey.length);
        }
        if (genesisSeconds < 0) throw new IllegalArgumentException("genesis before 1970: " + genesisSeconds);
        if (periodSeconds <= 0) throw new IllegalArgumentException("a period is at least 1 s, not " + periodSeconds);
        if (!SCHEME.equals(scheme)) {
            throw new IllegalArgumentException("beacon scheme \"" + scheme + "\" is not supported: only " + SCHEME);
        }
        publicKey = publicKey.clone();
    }

    /**
     * A chain this deployment runs ({@link LocalBeacon}). Its hash is our own definition, not drand's (which also
     * covers a DKG group hash and a beacon id a single key does not have): the hex SHA-256 of {@code publicKey ||
     * genesisSeconds as u64 big-endian || periodSeconds as u32 big-endian || the scheme in UTF-8}.
     */
    public static BeaconChain local(byte[] publicKey, long genesisSeconds, int periodSeconds) {
        Objects.requireNonNull(publicKey, "publicKey");
        byte[] hash = Bls.sha256(
                publicKey,
                ByteBuffer.allocate(Long.BYTES).putLong(genesisSeconds).array(),
                ByteBuffer.allocate(Integer.BYTES).putInt(periodSeconds).array(),
                SCHEME.getBytes(StandardCharsets.UTF_8));
        return new BeaconChain(HEX.formatHex(hash), publicKey, genesisSeconds, periodSeconds, SCHEME);
    }

    /** A copy of the group public key (compressed G2). */
    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The public key in hex, as drand's chain info writes it. */
    public String publicKeyHex() {
        return HEX.formatHex(publicKey);
    }

    /** The latest round published at {@code epochMs} (a round is published at its time exactly); 0 before genesis. */
    public long roundAt(long epochMs) {
        long sinceGenesis = epochMs - genesisSeconds * 1000;
        if (sinceGenesis < 0) return 0;
        return sinceGenesis / (periodSeconds * 1000L) + 1;
    }

    /** When {@code round} (1 or more) is published, in epoch milliseconds. */
    public long timeOfMs(long round) {
        if (round < 1) throw new IllegalArgumentException("rounds start at 1, not " + round);
        return (genesisSeconds + (round - 1) * periodSeconds) * 1000;
    }

    /** The first round published strictly after {@code epochMs}: {@code roundAt(epochMs) + 1}. */
    public long firstRoundAfter(long epochMs) {
        return roundAt(epochMs) + 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BeaconChain c
                && hash.equals(c.hash)
                && Arrays.equals(publicKey, c.publicKey)
                && genesisSeconds == c.genesisSeconds
                && periodSeconds == c.periodSeconds
                && scheme.equals(c.scheme);
    }

    @Override
    public int hashCode() {
        return hash.hashCode();
    }

    @Override
    public String toString() {
        return "BeaconChain[" + hash + ", genesis " + genesisSeconds + " s, every " + periodSeconds + " s, " + scheme
                + "]";
    }
}
