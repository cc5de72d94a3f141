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
    /** A refusal whose message is safe to show. */
    static final class Refusal extends BadJWTException {
        Refusal(String message) {
            super(message);
        }
    }

    /** The one refusal of the claims that may pass later: the token's {@code nbf} is still ahead. */
    static final String NOT_YET_VALID = "token not yet valid";

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
            throw new Refusal(reason(claims, e));
        }
        long now = clock.instant().getEpochSecond();
        long exp = seconds(claims.getExpirationTime());
        // from iat, or from now when iat is absent or claims the future (else iat = next year would stretch the
        // window); checked once, when the token is first verified: exp - now only shrinks afterwards
        long from = claims.getIssueTime() == null ? now : Math.min(seconds(claims.getIssueTime()), now);
        if (exp - from > policy.maxLifetime().toSeconds()) {
            throw new Refusal("token lifetime exceeds " + policy.maxLifetime().toSeconds() + " seconds");
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
        return "token claims are not accepted";
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
