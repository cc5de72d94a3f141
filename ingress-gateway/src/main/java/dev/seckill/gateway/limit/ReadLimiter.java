package dev.seckill.gateway.limit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;

/**
 * The limit on status reads ({@code GET /api/purchases...}): per buyer when the request carries a token, per client
 * address when it does not, so that a flood of lookups — of random ids, unauthenticated — is refused at the door
 * (429) before it reaches Redis, and one client's flood cannot use another's share. Bounded like the door's limits
 * ({@link KeyedBuckets}).
 */
public final class ReadLimiter {
    private final KeyedBuckets<String> perClient;

    public ReadLimiter(double ratePerSecond, double burst, int maxTrackedKeys) {
        this.perClient = new KeyedBuckets<>(ratePerSecond, burst, maxTrackedKeys);
    }

    /** Null when the read may pass; the limit it hit otherwise ({@code buyer} or {@code address}). */
    public RateLimiter.Limited check(Long buyer, String address) {
        String key = buyer != null ? "u" + buyer : "a" + network(address);
        long wait = perClient.take(key, System.nanoTime());
        return wait > 0 ? RateLimiter.limited(buyer != null ? "buyer" : "address", wait) : null;
    }

    public long trackedKeys() {
        return perClient.size();
    }

    /**
     * The client's address as one bucket: an IPv4 address itself, an IPv6 address its /64 (one subscriber's network:
     * its addresses are the client's to pick, and one bucket each would let it choose its own limit).
     */
    static String network(String address) {
        if (address == null || address.indexOf(':') < 0) return address;
        try {
            byte[] b = InetAddress.getByName(address).getAddress(); // a literal: no lookup
            return b.length == 16 ? HexFormat.of().formatHex(b, 0, 8) + "/64" : address;
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
