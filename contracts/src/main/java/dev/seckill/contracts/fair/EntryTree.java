package dev.seckill.contracts.fair;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The digest of a draw's entries: a Merkle tree hash as RFC 9162 (Certificate Transparency 2.0, section 2.1) defines
 * it, over the entries' record bytes in offset order. A leaf is {@code SHA-256(0x00 || bytes)}, a node
 * {@code SHA-256(0x01 || left || right)}, a tree of n > 1 leaves splits at the largest power of two below n, and the
 * empty tree is {@code SHA-256()}. A buyer's inclusion proof ({@link #proof}) is the audit path of RFC 9162 section
 * 2.1.3: log2(n) hashes that lead from their entry's leaf to the root the DRAWN entry publishes.
 */
public final class EntryTree {
    private EntryTree() {}

    /** The leaf hash of one entry's record bytes. */
    public static byte[] leaf(byte[] recordBytes) {
        MessageDigest d = Draw.sha256();
        d.update((byte) 0);
        d.update(recordBytes);
        return d.digest();
    }

    /** The root over leaf hashes, in order. */
    public static byte[] root(List<byte[]> leaves) {
        return root(leaves, 0, leaves.size());
    }

    private static byte[] root(List<byte[]> leaves, int from, int to) {
        int n = to - from;
        if (n == 0) return Draw.sha256(new byte[0]);
        if (n == 1) return leaves.get(from);
        int k = split(n);
        return node(root(leaves, from, from + k), root(leaves, from + k, to));
    }

    /** The audit path of leaf {@code index}: the sibling hashes from the leaf up to the root. */
    public static List<byte[]> proof(List<byte[]> leaves, int index) {
        if (index < 0 || index >= leaves.size()) throw new IllegalArgumentException("no leaf " + index);
        List<byte[]> path = new ArrayList<>();
        path(leaves, 0, leaves.size(), index, path);
        return path;
    }

    private static void path(List<byte[]> leaves, int from, int to, int index, List<byte[]> out) {
        int n = to - from;
        if (n <= 1) return;
        int k = split(n);
        if (index - from < k) {
            path(leaves, from, from + k, index, out);
            out.add(root(leaves, from + k, to));
        } else {
            path(leaves, from + k, to, index, out);
            out.add(root(leaves, from, from + k));
        }
    }

    /** RFC 9162 section 2.1.3.2: whether {@code path} leads from {@code leaf} at {@code index} of {@code size} to {@code root}. */
    public static boolean verify(byte[] leaf, long index, long size, List<byte[]> path, byte[] root) {
        if (index < 0 || index >= size) return false;
        long fn = index;
        long sn = size - 1;
        byte[] r = leaf;
        for (byte[] p : path) {
            if (sn == 0) return false;
            if ((fn & 1) == 1 || fn == sn) {
                r = node(p, r);
                if ((fn & 1) == 0)
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>= 1;
                        sn >>= 1;
                    }
            } else r = node(r, p);
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && Arrays.equals(r, root);
    }

    static byte[] node(byte[] left, byte[] right) {
        MessageDigest d = Draw.sha256();
        d.update((byte) 1);
        d.update(left);
        d.update(right);
        return d.digest();
    }

    /** The largest power of two smaller than {@code n} (n > 1). */
    private static int split(int n) {
        return Integer.highestOneBit(n - 1);
    }
}
