package dev.seckill.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Tokens verified before, bounded by Caffeine (when full, the least useful entries make room one by one; nothing is
 * dropped whole). Keyed by the SHA-256 of the token's exact text (signature included, so a forged or tampered token
 * never matches one): 32 bytes whatever the token's size (an RS256 token is about four times an HS256 one).
 */
final class VerifiedTokens {
    /** What a verified token says: its userId, validity window (epoch seconds; nbf 0 when absent), and key id. */
    record Entry(long userId, long exp, long nbf, String kid) {}

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private final Cache<String, Entry> cache;

    VerifiedTokens(int maxEntries) {
        this.cache = Caffeine.newBuilder().maximumSize(maxEntries).build();
    }

    /** The cache key of a token: its SHA-256, as a 32-character Latin-1 string (compact, quick to compare). */
    static String key(String token) {
        byte[] digest = SHA256.get().digest(token.getBytes(StandardCharsets.UTF_8));
        return new String(digest, StandardCharsets.ISO_8859_1);
    }

    Entry get(String key) {
        return cache.getIfPresent(key);
    }

    void put(String key, Entry entry) {
        cache.put(key, entry);
    }

    void remove(String key) {
        cache.invalidate(key);
    }

    /** Entries now, once pending evictions are done. */
    int size() {
        cache.cleanUp();
        return (int) cache.estimatedSize();
    }
}
