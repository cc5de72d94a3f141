package dev.seckill.contracts.fair;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The draw of a drawn sale ({@link Fairness#LOTTERY}, {@link Fairness#REGISTRATION}), a published function anyone can
 * recompute (docs/contracts.md, "The draw"):
 *
 * <ul>
 *   <li>the <b>entries</b> are frozen first: their digest {@code D} is the root of an {@link EntryTree} over the window
 *       purchases' record bytes, in offset order, as the broker appended them up to the cutoff;
 *   <li>the <b>seed</b> is {@code SHA-256("seckill-draw:v2:<goodsId>:<hex D>:<hex randomness>")}, where
 *       {@code randomness} is {@code SHA-256(signature)} of a public beacon round that did not exist at the cutoff (the
 *       round the OPENED entry named): nobody — the operator included — can know it while entries can still be placed;
 *   <li>each buyer's <b>ticket</b> is {@code SHA-256(seed || "<goodsId>:<userId>")} in hex; the draw's order is the
 *       buyers sorted by ticket (then by userId, never needed in practice): one ticket per buyer, however many requests
 *       they sent.
 * </ul>
 */
public final class Draw {
    /** The version of the draw's rules, in the seed's input and on the ledger's draw facts. */
    public static final String SCHEME = "seckill-draw:v2";

    private static final HexFormat HEX = HexFormat.of();

    private Draw() {}

    /** The seed of {@code goodsId}'s draw: the entries' digest and the beacon round's randomness, both public. */
    public static byte[] seed(long goodsId, byte[] digest, byte[] randomness) {
        return sha256(
                (SCHEME + ":" + goodsId + ":" + hex(digest) + ":" + hex(randomness)).getBytes(StandardCharsets.UTF_8));
    }

    public static String ticket(byte[] seed, long goodsId, long userId) {
        MessageDigest d = sha256();
        d.update(seed);
        d.update((goodsId + ":" + userId).getBytes(StandardCharsets.UTF_8));
        return HEX.formatHex(d.digest());
    }

    /** The buyers in the draw's order (each once, duplicates ignored). */
    public static List<Long> order(byte[] seed, long goodsId, Collection<Long> userIds) {
        record Entry(long userId, String ticket) {}
        List<Entry> entries = new ArrayList<>();
        for (long u : new LinkedHashSet<>(userIds)) entries.add(new Entry(u, ticket(seed, goodsId, u)));
        entries.sort(Comparator.comparing(Entry::ticket).thenComparingLong(Entry::userId));
        return entries.stream().map(Entry::userId).toList();
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    public static byte[] unhex(String hex) {
        return HEX.parseHex(hex);
    }

    public static byte[] sha256(byte[] bytes) {
        return sha256().digest(bytes);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
