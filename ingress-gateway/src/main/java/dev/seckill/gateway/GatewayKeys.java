package dev.seckill.gateway;

import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.kit.config.Settings;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;

/** The gateway's keys from its settings: the buyers' token key and the key that signs the requestIds it issues. */
final class GatewayKeys {
    private GatewayKeys() {}

    /**
     * The key that signs the requestIds gateways issue, shared by every instance: SECKILL_GATEWAY_ID_SECRET, else one
     * derived from the buyers' JWT secret; with auth off and neither set, one of this instance only (a GET through
     * another instance then learns of such an id only once it is indexed).
     */
    static byte[] idSecret(Settings settings, boolean authOn) {
        String configured = settings.get(GatewaySettings.ID_SECRET);
        if (!configured.isEmpty()) return GeneratedIds.derivedKey(configured);
        if (authOn) return GeneratedIds.derivedKey(settings.get(GatewaySettings.AUTH_SECRET));
        byte[] own = new byte[32];
        new SecureRandom().nextBytes(own);
        return own;
    }

    /** The buyers' identity (HS256 JWT), or null when auth is off (a demo). */
    static Jwt buyerIdentity(Settings settings, Clock clock) {
        if (!settings.get(GatewaySettings.AUTH_ENABLED)) return null;
        String secret = settings.get(GatewaySettings.AUTH_SECRET);
        if (secret.length() < 32) {
            throw new IllegalStateException("auth is on and needs an HMAC secret of at least 32 characters in "
                    + "SECKILL_GATEWAY_AUTH_SECRET (or SECKILL_GATEWAY_AUTH_ENABLED=false for a demo)");
        }
        return new Jwt(
                secret,
                clock,
                new Jwt.Policy(
                        settings.get(GatewaySettings.AUTH_ISSUER),
                        settings.get(GatewaySettings.AUTH_AUDIENCE),
                        Duration.ofSeconds(settings.get(GatewaySettings.AUTH_MAX_LIFETIME_SECONDS))));
    }
}
