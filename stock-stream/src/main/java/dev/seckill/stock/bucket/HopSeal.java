package dev.seckill.stock.bucket;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Seals the stream's hops so that a record on the commands topic is taken for one only when the stream wrote it: an
 * HMAC-SHA256, under a key every stock-stream instance shares ({@code SECKILL_STREAM_HOP_SECRET}), of the hop's kind,
 * bucket, parking time, claim layout (an open's share), sale (a claimed purchase's) and value, in headers beside them. Any producer may write the commands topic; without the key none can write a
 * transfer that makes units, or a purchase that skips its claim (docs/decisions.md, "Stock buckets").
 */
public final class HopSeal {
    public static final String KIND = "seckill-hop";
    public static final String BUCKET = "seckill-hop-bucket";
    public static final String MAC = "seckill-hop-mac";
    public static final String SINCE = "seckill-hop-since";
    public static final String CLAIMS = "seckill-hop-claims";
    public static final String SALE = "seckill-hop-sale";

    /** What a record's hop headers say: no hop, a hop whose seal holds, or one whose does not. */
    public sealed interface Opened {}

    public record NotAHop() implements Opened {}

    private static final NotAHop NOT_A_HOP = new NotAHop();

    public record Sealed(Hop hop) implements Opened {}

    public record Broken(String why) implements Opened {}

    private final SecretKeySpec key;

    /** @param secret the shared key; blank: no hop can be sealed or opened (bucketed sales are refused) */
    public HopSeal(String secret) {
        this.key = secret == null || secret.isBlank()
                ? null
                : new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** A random key of 256 bits, hex: for one run whose stream processes share it (tests, benchmarks, the local stack). */
    public static String freshKey() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    /** Whether this seal has a key. */
    public boolean keyed() {
        return key != null;
    }

    /** The headers of {@code hop} on the commands topic. */
    public Headers headers(Hop hop) {
        if (key == null) throw new IllegalStateException("no SECKILL_STREAM_HOP_SECRET: hops cannot be sealed");
        RecordHeaders h = new RecordHeaders();
        h.add(KIND, hop.kind().wire().getBytes(StandardCharsets.UTF_8));
        h.add(BUCKET, Integer.toString(hop.bucket()).getBytes(StandardCharsets.UTF_8));
        if (hop.since() >= 0) h.add(SINCE, Long.toString(hop.since()).getBytes(StandardCharsets.UTF_8));
        if (hop.claimBuckets() >= 0)
            h.add(CLAIMS, Integer.toString(hop.claimBuckets()).getBytes(StandardCharsets.UTF_8));
        if (hop.sale() != null) h.add(SALE, hop.sale().getBytes(StandardCharsets.UTF_8));
        h.add(
                MAC,
                mac(hop.kind(), hop.bucket(), hop.since(), hop.claimBuckets(), hop.sale(), hop.value())
                        .getBytes(StandardCharsets.UTF_8));
        return h;
    }

    /** The hop a record carries, read from its headers and checked against its value. */
    public Opened open(Headers headers, byte[] value) {
        Header kindHeader = headers.lastHeader(KIND);
        if (kindHeader == null) return NOT_A_HOP;
        Hop.Kind kind = Hop.Kind.ofWire(text(kindHeader));
        if (kind == null) return new Broken("hop kind '" + text(kindHeader) + "' unknown");
        Header bucketHeader = headers.lastHeader(BUCKET);
        Header macHeader = headers.lastHeader(MAC);
        if (bucketHeader == null || macHeader == null) return new Broken("hop without its bucket or seal");
        int bucket;
        try {
            bucket = Integer.parseInt(text(bucketHeader));
        } catch (NumberFormatException e) {
            return new Broken("hop bucket '" + text(bucketHeader) + "' not a number");
        }
        if (bucket < 0 || bucket >= BucketPlan.MAX_BUCKETS || value == null)
            return new Broken("hop bucket " + bucket + " out of range");
        Header sinceHeader = headers.lastHeader(SINCE);
        long since;
        try {
            since = sinceHeader == null ? -1 : Long.parseLong(text(sinceHeader));
        } catch (NumberFormatException e) {
            return new Broken("hop since '" + text(sinceHeader) + "' not a number");
        }
        Header claimsHeader = headers.lastHeader(CLAIMS);
        int claims;
        try {
            claims = claimsHeader == null ? -1 : Integer.parseInt(text(claimsHeader));
        } catch (NumberFormatException e) {
            return new Broken("hop claims '" + text(claimsHeader) + "' not a number");
        }
        if (claimsHeader != null && (claims < 1 || claims > BucketPlan.MAX_BUCKETS))
            return new Broken("hop claims " + claims + " out of range");
        if (key == null) return new Broken("a hop arrived but this instance has no SECKILL_STREAM_HOP_SECRET");
        Header saleHeader = headers.lastHeader(SALE);
        String sale = saleHeader == null ? null : text(saleHeader);
        byte[] expected = mac(kind, bucket, since, claims, sale, value).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, macHeader.value()))
            return new Broken("hop seal does not match: not written by the stream, or under another key");
        return new Sealed(new Hop(kind, bucket, value, since, claims, sale));
    }

    private String mac(Hop.Kind kind, int bucket, long since, int claims, String sale, byte[] value) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(key);
            m.update((kind.wire() + "\n" + bucket + "\n" + since + "\n").getBytes(StandardCharsets.UTF_8));
            // an open's share names its claim layout (hops without one keep the seal they had)
            if (claims >= 0) m.update(("claims " + claims + "\n").getBytes(StandardCharsets.UTF_8));
            // a claimed purchase names its sale
            if (sale != null) m.update(("sale " + sale + "\n").getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(m.doFinal(value));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private static String text(Header h) {
        return h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
