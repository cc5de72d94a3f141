package dev.seckill.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;

/**
 * Tokens refused for good before (a bad signature, a malformed token, claims that do not hold), with the reason, keyed
 * like {@link VerifiedTokens} by the SHA-256 of the token's text: the same forged token sent again is refused for the
 * cost of a hash, not a signature check. Bounded by Caffeine (a flood of distinct forged tokens evicts its own entries
 * first: an entry seen once is worth less than one seen often), and each forgotten after {@code memory} — the JWKS's
 * refresh interval, so a token refused under a key the provider has since fixed is checked again. Refusals that may
 * pass later — an {@code nbf} ahead, a lifetime counted from now, a key not read yet, keys unavailable — are never kept.
 */
final class RefusedTokens {
    private final Cache<String, String> cache;

    RefusedTokens(int maxEntries, Duration memory, Clock clock) {
        this.cache = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .expireAfterWrite(memory)
                .ticker(() -> clock.millis() * 1_000_000L) // the verifier's clock (a test moves it)
                .build();
    }

    /** The reason the token of this key was refused, or null when it was not (or is no longer remembered). */
    String reason(String key) {
        return cache.getIfPresent(key);
    }

    void put(String key, String reason) {
        cache.put(key, reason);
    }
}
