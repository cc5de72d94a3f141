package dev.seckill.stock.decision;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The Lua scripts of the decision, loaded once from {@code .lua} resources, each with its SHA1 for EVALSHA. */
public enum StockScript {
    PURCHASE("purchase.lua"),
    RELEASE("release.lua"),
    OPEN_SALE("open_sale.lua"),
    CLOSE_SALE("close_sale.lua"),
    RESTORE("restore.lua"),
    PAY("pay.lua"),
    /** Units out of or into one bucket of a bucketed goods, for a borrow. */
    TRANSFER("transfer.lua"),
    /**
     * Purchases of one goods decided in turn inside one script: {@code purchase.lua} itself, wrapped as a function of
     * its KEYS and ARGV, called once per purchase on that purchase's arguments (the batch's ARGV is every purchase's
     * {@code purchase.lua} arguments one after another: {@code width} in {@code purchase_batch.lua} is their count, as
     * {@code StockScripts.purchaseCall} makes them); returns the list of their results. The same
     * decisions as calling {@link #PURCHASE} once per purchase in the same order (the scripts are atomic either way),
     * with the per-call work Redis does for an EVALSHA paid once per batch.
     */
    PURCHASE_BATCH("purchase.lua", "purchase_batch.lua");

    private final String source;
    private final String sha1;

    StockScript(String resource) {
        this.source = read(resource);
        this.sha1 = sha1(source);
    }

    StockScript(String each, String batch) {
        this.source = "local function purchase(KEYS, ARGV)\n" + read(each) + "\nend\n" + read(batch);
        this.sha1 = sha1(source);
    }

    private static String read(String resource) {
        try (InputStream in = StockScript.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing Lua resource " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public String source() {
        return source;
    }

    public String sha1() {
        return sha1;
    }

    public String metricName() {
        return name().toLowerCase();
    }
}
