package dev.seckill.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.text.ParseException;
import java.util.Set;

/**
 * A token checked in full, what {@link Jwt}'s caches spare: parsed, its algorithm the gateway's choice ({@code none}
 * and unlisted ones refused), its type, its {@code kid} when keys are a JWKS, its signature (nimbus-jose-jwt against
 * {@link TokenKeys}) and its claims ({@link TokenRules}). Each refusal is in the gateway's words and says whether it
 * lasts ({@link Jwt.Refused#lasting()}).
 */
final class TokenCheck {
    private static final Set<JOSEObjectType> TYPES = Set.of(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"));

    private final TokenKeys keys;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    TokenCheck(TokenKeys keys, TokenRules rules) {
        this.keys = keys;
        // a token without typ passes too (some providers leave it out); a typ not ours is refused before this
        processor.setJWSTypeVerifier(
                new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
        processor.setJWSKeySelector(keys.selector());
        processor.setJWTClaimsSetVerifier(rules);
    }

    /** The token parsed, its header, signature and claims checked: what it says, or why it is refused. */
    VerifiedTokens.Entry check(String token) throws Jwt.Refused {
        SignedJWT jwt;
        try {
            JWT parsed = JWTParser.parse(token);
            if (!(parsed instanceof SignedJWT signed)) throw new Jwt.Refused("unsupported token algorithm");
            jwt = signed;
        } catch (ParseException e) {
            throw new Jwt.Refused("malformed token");
        }
        JWSHeader header = jwt.getHeader();
        if (!keys.algorithms().contains(header.getAlgorithm())) throw new Jwt.Refused("unsupported token algorithm");
        if (header.getType() != null && !TYPES.contains(header.getType()))
            throw new Jwt.Refused("unsupported token type");
        String kid = header.getKeyID();
        if (keys.keyIdRequired() && kid == null) throw new Jwt.Refused("token names no signing key (kid)");
        try {
            JWTClaimsSet claims = processor.process(jwt, null);
            return new VerifiedTokens.Entry(
                    TokenRules.userId(claims),
                    TokenRules.seconds(claims.getExpirationTime()),
                    claims.getNotBeforeTime() == null ? 0 : TokenRules.seconds(claims.getNotBeforeTime()),
                    keys.keyIdRequired() ? kid : null);
        } catch (TokenRules.Refusal e) {
            throw new Jwt.Refused(e.getMessage(), e.lasting());
        } catch (BadJWSException e) {
            throw new Jwt.Refused("bad token signature");
        } catch (BadJWTException e) {
            throw new Jwt.Refused("malformed token claims"); // nimbus reads the claims before the signature
        } catch (RateLimitReachedException e) {
            throw new Jwt.Refused("token signing key is not known", false); // an early read of the set refused
        } catch (BadJOSEException e) {
            // nimbus: "Another algorithm expected, or no matching key(s) found" — the kid is not in the set (yet?)
            if (String.valueOf(e.getMessage()).contains("no matching key"))
                throw new Jwt.Refused(
                        keys.keyIdRequired() ? "token signing key is not known" : "bad token signature", false);
            throw new Jwt.Refused("token refused", false); // nothing we know of: never remembered
        } catch (KeySourceException e) {
            throw new Jwt.Refused("token signing keys are unavailable", false);
        } catch (JOSEException e) {
            throw new Jwt.Refused("bad token signature");
        }
    }
}
