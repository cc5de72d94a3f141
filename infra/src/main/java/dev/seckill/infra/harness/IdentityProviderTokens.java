package dev.seckill.infra.harness;

import com.nimbusds.jose.Algorithm;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.seckill.kit.observability.OneLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Buyer tokens signed as the identity provider signs them, with its private key: RS256 with an RSA key, ES256 with an
 * EC P-256 key, the key's {@code kid} in the header (the gateway chooses its public key by it); {@code sub} = the
 * buyer's userId, {@code iat} now, {@code exp}, and {@code iss}/{@code aud} when given. What {@code load --via http
 * --signing-key} and {@code bench gateway}'s rs256 tokens sign with. A key that cannot sign such tokens is refused
 * with an {@link IllegalArgumentException} whose message is one line saying why.
 */
public final class IdentityProviderTokens {
    private final JWSSigner signer;
    private final JWSHeader header;
    private final String issuer;
    private final String audience;

    /** Tokens signed with {@code key} (a private RSA or EC P-256 JWK with a kid); issuer/audience null or empty: none. */
    public IdentityProviderTokens(JWK key, String issuer, String audience) {
        JWSAlgorithm algorithm = algorithm(key);
        if (!key.isPrivate()) throw new IllegalArgumentException("the key is public only: it cannot sign tokens");
        if (key.getKeyID() == null || key.getKeyID().isBlank()) {
            throw new IllegalArgumentException("the key has no kid (the gateway chooses a token's key by it)");
        }
        try {
            this.signer = key instanceof RSAKey rsa ? new RSASSASigner(rsa) : new ECDSASigner((ECKey) key);
        } catch (JOSEException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the key cannot sign " + algorithm + ": " + e.getMessage());
        }
        this.header = new JWSHeader.Builder(algorithm)
                .keyID(key.getKeyID())
                .type(JOSEObjectType.JWT)
                .build();
        this.issuer = issuer == null || issuer.isEmpty() ? null : issuer;
        this.audience = audience == null || audience.isEmpty() ? null : audience;
    }

    /**
     * Tokens signed with the private key in {@code file}: one JWK, or a JWK set (its first private key; the set's only
     * key when none is private, so that a public-only set is refused as such).
     */
    public static IdentityProviderTokens fromFile(Path file, String issuer, String audience) {
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no file " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + OneLine.of(e.toString()));
        }
        return new IdentityProviderTokens(key(json, file), issuer, audience);
    }

    /** The algorithm tokens are signed with: RS256 or ES256. */
    public JWSAlgorithm algorithm() {
        return header.getAlgorithm();
    }

    /** The key's id, named by every token. */
    public String keyId() {
        return header.getKeyID();
    }

    /** A signed token for {@code userId}, issued now, valid until {@code expiresAt}. */
    public String mint(long userId, Instant expiresAt) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(Long.toString(userId))
                .issueTime(new Date())
                .expirationTime(Date.from(expiresAt));
        if (issuer != null) claims.issuer(issuer);
        if (audience != null) claims.audience(audience);
        SignedJWT jwt = new SignedJWT(header, claims.build());
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static JWK key(String json, Path file) {
        try {
            if (!json.contains("\"keys\"")) return JWK.parse(json);
            List<JWK> keys = JWKSet.parse(json).getKeys();
            if (keys.isEmpty()) throw new IllegalArgumentException(file + " is a JWK set without keys");
            return keys.stream().filter(JWK::isPrivate).findFirst().orElse(keys.get(0));
        } catch (ParseException e) {
            throw new IllegalArgumentException(file + " is not a JWK or a JWK set: " + OneLine.of(e.getMessage()));
        }
    }

    private static JWSAlgorithm algorithm(JWK key) {
        JWSAlgorithm algorithm;
        if (key instanceof RSAKey) algorithm = JWSAlgorithm.RS256;
        else if (key instanceof ECKey ec && Curve.P_256.equals(ec.getCurve())) algorithm = JWSAlgorithm.ES256;
        else {
            String curve = key instanceof ECKey ec ? " " + ec.getCurve() : "";
            throw new IllegalArgumentException("unsupported key type " + key.getKeyType() + curve
                    + " (an RSA key signs RS256, an EC P-256 key ES256)");
        }
        Algorithm declared = key.getAlgorithm();
        if (declared != null && !declared.getName().equals(algorithm.getName())) {
            throw new IllegalArgumentException(
                    "the key is for " + declared + "; only RS256 (RSA) and ES256 (EC P-256)" + " tokens are signed");
        }
        return algorithm;
    }
}
