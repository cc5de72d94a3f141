package dev.seckill.kit.db;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The JDBC URL every service connects with: the configured URL plus the connector settings the services rely on. */
public final class JdbcUrls {
    private JdbcUrls() {}

    /**
     * Adds the connector settings the services rely on: batched statements, UTC, timeouts; and, only when every host of
     * the URL is loopback, no TLS and public-key retrieval (a local dev server has no certificate; across a network the
     * driver's defaults — TLS preferred, no key retrieval over plain text — stay, unless the URL itself says otherwise).
     */
    public static String withDriverDefaults(String url) {
        List<String> defaults = new ArrayList<>(List.of(
                "rewriteBatchedStatements=true",
                "connectionTimeZone=UTC",
                "connectTimeout=5000",
                "socketTimeout=30000"));
        if (loopbackOnly(url)) defaults.addAll(List.of("sslMode=DISABLED", "allowPublicKeyRetrieval=true"));
        String sep = url.contains("?") ? "&" : "?";
        StringBuilder b = new StringBuilder(url);
        for (String p : defaults) {
            if (!url.contains(p.substring(0, p.indexOf('=') + 1))) {
                b.append(sep).append(p);
                sep = "&";
            }
        }
        return b.toString();
    }

    /**
     * The URL without {@code createDatabaseIfNotExist}: for a pool whose database must already exist. A pool still
     * opening a connection when it is closed finishes that connect afterwards (HikariCP waits the driver's login
     * timeout, 0, for it), so with the parameter a database dropped right after the pool's close can come back.
     */
    public static String withoutDatabaseCreation(String url) {
        int q = url.indexOf('?');
        if (q < 0) return url;
        String params = url.substring(q + 1)
                .replaceAll("(?i)(^|&)createDatabaseIfNotExist=[^&]*", "")
                .replaceAll("^&", "");
        return url.substring(0, q) + (params.isEmpty() ? "" : "?" + params);
    }

    /** True when every host named in a {@code jdbc:mysql://h1[:p1][,h2[:p2]]/db?…} URL is a loopback address. */
    public static boolean loopbackOnly(String url) {
        int start = url.indexOf("//");
        if (start < 0) return false;
        int end = url.length();
        for (char c : new char[] {'/', '?'}) {
            int i = url.indexOf(c, start + 2);
            if (i >= 0) end = Math.min(end, i);
        }
        String hosts = url.substring(start + 2, end);
        if (hosts.isEmpty()) return false;
        for (String hostPort : hosts.split(",")) {
            if (!isLoopback(host(hostPort.trim()))) return false;
        }
        return true;
    }

    private static String host(String hostPort) {
        String hp = hostPort.contains("@") ? hostPort.substring(hostPort.lastIndexOf('@') + 1) : hostPort;
        if (hp.startsWith("[")) return hp.substring(1, Math.max(1, hp.indexOf(']')));
        int colon = hp.indexOf(':');
        return colon < 0 ? hp : hp.substring(0, colon);
    }

    /** Literal loopback addresses and {@code localhost} only: no DNS lookup decides whether TLS is dropped. */
    private static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost")
                || h.equals("::1")
                || h.equals("0:0:0:0:0:0:0:1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
