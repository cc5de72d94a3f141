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
    PAY("pay.lua");

    private final String source;
    private final String sha1;

    StockScript(String resource) {
        try (InputStream in = StockScript.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing Lua resource " + resource);
            this.source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            this.sha1 = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
