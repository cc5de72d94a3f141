package dev.seckill.stock.draw.beacon;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import supranational.blst.BLST_ERROR;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;
import supranational.blst.SecretKey;

/**
 * The BLS12-381 arithmetic of the {@value BeaconChain#SCHEME} scheme (drand's quicknet), over supranational's blst
 * (jblst): signatures on G1 (48 bytes compressed), public keys on G2 (96 bytes compressed), the message of round
 * {@code r} is {@code SHA-256(r as 8 bytes big-endian)}, hashed to G1 by RFC 9380 with {@link #DST}.
 */
final class Bls {
    /** The RFC 9380 domain separation tag drand's {@value BeaconChain#SCHEME} signs under (basic scheme, on G1). */
    static final String DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

    static final int SIGNATURE_BYTES = 48;
    static final int PUBLIC_KEY_BYTES = 96;

    private Bls() {}

    /** The message signed for {@code round}: SHA-256 of the round as an unsigned 64-bit big-endian number. */
    static byte[] message(long round) {
        return sha256(ByteBuffer.allocate(Long.BYTES).putLong(round).array());
    }

    /**
     * Whether {@code signature} is {@code publicKey}'s signature of {@code round}: false, never an exception, for bytes
     * of the wrong length, not a point, a point not in its group, the point at infinity or a signature that does not
     * verify.
     */
    static boolean verify(byte[] publicKey, long round, byte[] signature) {
        if (publicKey == null || publicKey.length != PUBLIC_KEY_BYTES) return false;
        if (signature == null || signature.length != SIGNATURE_BYTES) return false;
        try {
            P1_Affine sig = new P1_Affine(signature);
            P2_Affine pk = new P2_Affine(publicKey);
            if (sig.is_inf() || !sig.in_group() || pk.is_inf() || !pk.in_group()) return false;
            return sig.core_verify(pk, true, message(round), DST) == BLST_ERROR.BLST_SUCCESS;
        } catch (RuntimeException notAPoint) { // blst's bindings throw on bytes that do not decode to a curve point
            return false;
        }
    }

    /** The secret key derived from {@code ikm} (at least 32 bytes of keying material) by blst's keygen. */
    static SecretKey keyFrom(byte[] ikm) {
        SecretKey key = new SecretKey();
        key.keygen(ikm);
        return key;
    }

    /** The secret key whose scalar is {@code bigEndian} (as {@link SecretKey#to_bendian()} wrote it). */
    static SecretKey keyOf(byte[] bigEndian) {
        SecretKey key = new SecretKey();
        key.from_bendian(bigEndian);
        return key;
    }

    /** {@code key}'s public key on G2, compressed. */
    static byte[] publicKey(SecretKey key) {
        return new P2(key).compress();
    }

    /** {@code key}'s signature of {@code round}, on G1, compressed: what a {@value BeaconChain#SCHEME} chain serves. */
    static byte[] sign(SecretKey key, long round) {
        return new P1().hash_to(message(round), DST).sign_with(key).compress();
    }

    static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) digest.update(part);
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
