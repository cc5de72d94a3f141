package dev.seckill.contracts.fair;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The draw of a {@link Fairness#LOTTERY} sale, a published function anyone can recompute (docs/contracts.md, "The
 * draw"):
 *
 * <ul>
 *   <li>the <b>seed</b> is {@code HMAC-SHA256(secret, "seckill-draw:v1:<goodsId>:<opId>:<startAt epoch ms>")} — the
 *       secret is the stream's, the opId and start the open_sale's, so a replay of the same commands draws the same
 *       order, nobody without the secret can know it before it is revealed, and a sale opened again with a reused opId
 *       but another start does not repeat a revealed seed;
 *   <li>the <b>commitment</b>, published in the OPENED ledger entry before anyone buys, is {@code SHA-256(seed)} in hex;
 *       the seed is revealed in the DRAWN entry when the window closes, and must hash to it;
 *   <li>each buyer's <b>ticket</b> is {@code SHA-256(seed || "<goodsId>:<userId>")} in hex; the draw's order is the
 *       buyers sorted by ticket (then by userId, never needed in practice): one ticket per buyer, however many requests
 *       they sent.
 * </ul>
 */
public final class Draw {
    private static final HexFormat HEX = HexFormat.of();

    private Draw() {}

    public static byte[] seed(byte[] secret, long goodsId, String opId, long startAtMillis) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(
                    ("seckill-draw:v1:" + goodsId + ":" + opId + ":" + startAtMillis).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** {@code SHA-256(seed)}, hex: what the OPENED entry publishes. */
    public static String commitment(byte[] seed) {
        return HEX.formatHex(sha256().digest(seed));
    }

    /** True when {@code seed} is the one {@code commitment} promised. */
    public static boolean opens(String commitment, byte[] seed) {
        return commitment != null
                && MessageDigest.isEqual(commitment.getBytes(), commitment(seed).getBytes());
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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
