package dev.seckill.gateway;

import dev.seckill.gateway.auth.Jwt;
import dev.seckill.gateway.auth.TokenKeys;
import dev.seckill.gateway.status.GeneratedIds;
import dev.seckill.kit.config.Settings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;

/** The gateway's keys from its settings: the buyers' token key and the key that signs the requestIds it issues. */
final class GatewayKeys {
    private GatewayKeys() {}

    /**
     * The key that signs the requestIds gateways issue, shared by every instance: SECKILL_GATEWAY_ID_SECRET, else one
     * derived from the buyers' HS256 secret when there is one; else (auth off, or tokens verified against a JWKS
     * without a secret) one of this instance only (a GET through another instance then learns of such an id only
     * once it is indexed).
     */
    static byte[] idSecret(Settings settings, boolean authOn) {
        String configured = settings.get(GatewaySettings.ID_SECRET);
        if (!configured.isEmpty()) return GeneratedIds.derivedKey(configured);
        String tokenSecret = settings.get(GatewaySettings.AUTH_SECRET);
        if (authOn && tokenSecret.length() >= 32) return GeneratedIds.derivedKey(tokenSecret);
        byte[] own = new byte[32];
        new SecureRandom().nextBytes(own);
        return own;
    }

    /**
     * The buyers' token verifier (null: auth off), its full checks counted in {@code metrics}: a rise with 401s is a
     * forged-token flood.
     */
    static Jwt buyerIdentity(Settings settings, Clock clock, MeterRegistry metrics) {
        Jwt verifier = buyerIdentity(settings, clock);
        if (verifier != null)
            FunctionCounter.builder("seckill_gateway_token_verifications", verifier, Jwt::verifications)
                    .register(metrics);
        return verifier;
    }

    /**
     * The buyers' identity, or null when auth is off (a demo): tokens from the identity provider verified against its
     * JWKS when SECKILL_GATEWAY_AUTH_JWKS is set, else HS256 with SECKILL_GATEWAY_AUTH_SECRET (local runs).
     */
    static Jwt buyerIdentity(Settings settings, Clock clock) {
        if (!settings.get(GatewaySettings.AUTH_ENABLED)) return null;
        Jwt.Policy policy = new Jwt.Policy(
                settings.get(GatewaySettings.AUTH_ISSUER),
                settings.get(GatewaySettings.AUTH_AUDIENCE),
                Duration.ofSeconds(settings.get(GatewaySettings.AUTH_MAX_LIFETIME_SECONDS)),
                Duration.ofSeconds(settings.get(GatewaySettings.AUTH_LEEWAY_SECONDS)));
        String jwks = settings.get(GatewaySettings.AUTH_JWKS);
        if (!jwks.isEmpty()) {
            TokenKeys keys = TokenKeys.jwks(
                    jwks,
                    Duration.ofSeconds(settings.get(GatewaySettings.AUTH_JWKS_REFRESH_SECONDS)),
                    settings.get(GatewaySettings.AUTH_ALGORITHMS));
            return new Jwt(keys, clock, policy);
        }
        String secret = settings.get(GatewaySettings.AUTH_SECRET);
        if (secret.length() < 32) {
            throw new IllegalStateException("auth is on and needs the identity provider's keys in "
                    + "SECKILL_GATEWAY_AUTH_JWKS, or an HMAC secret of at least 32 characters in "
                    + "SECKILL_GATEWAY_AUTH_SECRET (or SECKILL_GATEWAY_AUTH_ENABLED=false for a demo)");
        }
        return new Jwt(secret, clock, policy);
    }
}
