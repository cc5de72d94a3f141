package dev.seckill.gateway.auth;

import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * What a token must claim, checked once its signature holds: nimbus's {@link DefaultJWTClaimsVerifier} ({@code sub}
 * and {@code exp} required, {@code iss} and {@code aud} when configured, {@code exp} and {@code nbf} with the leeway,
 * on the gateway's clock), then the gateway's own rules: an explicit {@code null} time claim is refused (never read
 * as absent), a token lives at most the maximum lifetime, and its subject is a positive userId. Each refusal says
 * why in words safe to show the caller.
 */
final class TokenRules extends DefaultJWTClaimsVerifier<SecurityContext> {
    /** A refusal whose message is safe to show; {@code lasting}: the same token will never pass. */
    static final class Refusal extends BadJWTException {
        private final boolean lasting;

        Refusal(String message) {
            this(message, true);
        }

        Refusal(String message, boolean lasting) {
            super(message);
            this.lasting = lasting;
        }

        boolean lasting() {
            return lasting;
        }
    }

    /** The one refusal of the claims that may pass later: the token's {@code nbf} is still ahead. */
    static final String NOT_YET_VALID = "token not yet valid";

    /** A refusal of nimbus's we cannot tell apart: never remembered. */
    static final String NOT_ACCEPTED = "token claims are not accepted";

    private final Jwt.Policy policy;
    private final Clock clock;

    TokenRules(Jwt.Policy policy, Clock clock) {
        super(
                policy.audience() == null ? null : Set.of(policy.audience()),
                policy.issuer() == null
                        ? new JWTClaimsSet.Builder().build()
                        : new JWTClaimsSet.Builder().issuer(policy.issuer()).build(),
                Set.of("sub", "exp"),
                null);
        setMaxClockSkew((int) policy.leeway().toSeconds());
        this.policy = policy;
        this.clock = clock;
    }

    @Override
    protected Date currentTime() {
        return Date.from(clock.instant());
    }

    @Override
    public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
        if (claims.getExpirationTime() == null) throw new Refusal("token has no expiry");
        for (String time : List.of("nbf", "iat")) {
            if (claims.getClaims().containsKey(time) && claims.getClaim(time) == null) {
                throw new Refusal("token " + time + " is not a number of seconds");
            }
        }
        try {
            super.verify(claims, context);
        } catch (BadJWTException e) {
            String reason = reason(claims, e);
            throw new Refusal(reason, !reason.equals(NOT_YET_VALID) && !reason.equals(NOT_ACCEPTED));
        }
        long now = clock.instant().getEpochSecond();
        long exp = seconds(claims.getExpirationTime());
        // from iat, or from now when iat is absent or claims the future (else iat = next year would stretch the
        // window); checked once, when the token is first verified: exp - now only shrinks afterwards
        boolean fromIat = claims.getIssueTime() != null && seconds(claims.getIssueTime()) <= now;
        long from = fromIat ? seconds(claims.getIssueTime()) : now;
        if (exp - from > policy.maxLifetime().toSeconds()) {
            // counted from now (no iat, or one ahead of our clock), the same token passes once now has moved on
            throw new Refusal("token lifetime exceeds " + policy.maxLifetime().toSeconds() + " seconds", fromIat);
        }
        userId(claims);
    }

    /** Why nimbus refused the claims, in the gateway's words (which of its checks failed, told from the claims). */
    private String reason(JWTClaimsSet claims, BadJWTException e) {
        if (e instanceof ExpiredJWTException) return "token expired";
        if (policy.issuer() != null && !policy.issuer().equals(claims.getIssuer()))
            return "token issuer is not accepted";
        if (policy.audience() != null
                && (claims.getAudience() == null || !claims.getAudience().contains(policy.audience())))
            return "token audience is not accepted";
        if (claims.getSubject() == null) return "token has no subject";
        if (claims.getNotBeforeTime() != null) return NOT_YET_VALID;
        return NOT_ACCEPTED;
    }

    /** The subject as a userId: a positive whole number. */
    static long userId(JWTClaimsSet claims) throws Refusal {
        try {
            long sub = Long.parseLong(claims.getSubject());
            if (sub <= 0) throw new Refusal("token subject is not a positive userId");
            return sub;
        } catch (NumberFormatException e) {
            throw new Refusal("token subject is not a userId");
        }
    }

    static long seconds(Date date) {
        return Math.floorDiv(date.getTime(), 1000);
    }
}
