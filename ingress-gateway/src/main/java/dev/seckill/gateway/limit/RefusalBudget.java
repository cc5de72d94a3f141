package dev.seckill.gateway.limit;

import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import java.util.List;

/**
 * How many tokens a client address may have checked in full and refused: a token the gateway does not remember
 * (neither verified nor refused before) takes one from its address's bucket before its signature is checked, and gets
 * it back when it verifies. So a client sending made-up or tampered tokens — each a signature check, an RSA or EC
 * verification with a JWKS — is answered 429 without any check once its budget is spent, while buyers whose tokens
 * verify never spend it, and tokens already verified pass whatever the address's budget. An address is one bucket as
 * for the status reads (an IPv6 client's /64). Bounded like the door's limits ({@link KeyedBuckets}).
 */
public final class RefusalBudget {
    public static final Setting<Long> PER_SECOND = Setting.number(
            "gateway.limit.refused.tokens.per.second",
            50,
            "tokens a client address may have refused per second (each a signature check); beyond it, tokens not "
                    + "verified before are answered 429 unchecked; 0: off. Behind a proxy set "
                    + "SECKILL_GATEWAY_CLIENT_ADDRESS_HEADER, or every client shares the proxy's budget");
    public static final Setting<Long> BURST = Setting.number(
            "gateway.limit.refused.tokens.burst", 500, "a client address's burst of refused tokens (at least 1)");

    /** Null when off: every token is checked. */
    private final KeyedBuckets<String> perAddress;

    public RefusalBudget(double perSecond, double burst, int maxTrackedKeys) {
        if (perSecond < 0)
            throw new IllegalStateException(PER_SECOND.env() + " must be 0 (off) or more, got " + (long) perSecond);
        if (perSecond > 0 && burst < 1)
            throw new IllegalStateException(BURST.env() + " must be at least 1, got " + (long) burst);
        this.perAddress = perSecond == 0 ? null : new KeyedBuckets<>(perSecond, burst, maxTrackedKeys);
    }

    /** The budget the settings give, over at most {@code maxTrackedKeys} addresses. */
    public static RefusalBudget from(Settings settings, int maxTrackedKeys) {
        return new RefusalBudget(settings.get(PER_SECOND), settings.get(BURST), maxTrackedKeys);
    }

    /** Every setting declared here. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(RefusalBudget.class);
    }

    /** Null when a token of {@code address} may be checked (a unit of budget taken); the limit it hit otherwise. */
    public RateLimiter.Limited take(String address) {
        if (perAddress == null) return null;
        long wait = perAddress.take(ReadLimiter.network(address), System.nanoTime());
        return wait > 0 ? RateLimiter.limited("address", wait) : null;
    }

    /** The token checked for {@code address} verified: its unit of budget back. */
    public void giveBack(String address) {
        if (perAddress != null) perAddress.giveBack(ReadLimiter.network(address));
    }

    public long trackedKeys() {
        return perAddress == null ? 0 : perAddress.size();
    }
}
