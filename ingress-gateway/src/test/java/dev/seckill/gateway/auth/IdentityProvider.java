package dev.seckill.gateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.lang.JoseException;

/**
 * An identity provider for the tests, on jose4j (a JOSE library independent of the gateway's nimbus): it makes RSA
 * and EC key pairs, publishes the public halves as a JWKS file (written whole, then moved into place, as a sync job
 * would), and mints tokens with a key of its choice.
 */
public final class IdentityProvider {
    public static final String ISSUER = "https://id.seckill.test";
    public static final String AUDIENCE = "seckill-gateway";

    private final Map<String, PublicJsonWebKey> keys = new LinkedHashMap<>();

    /** A new RSA-2048 key pair (RS256), known by {@code kid}. */
    public IdentityProvider rsa(String kid) throws JoseException {
        PublicJsonWebKey k = RsaJwkGenerator.generateJwk(2048);
        k.setKeyId(kid);
        keys.put(kid, k);
        return this;
    }

    /** A new P-256 key pair (ES256), known by {@code kid}. */
    public IdentityProvider ec(String kid) throws JoseException {
        PublicJsonWebKey k = EcJwkGenerator.generateJwk(EllipticCurves.P256);
        k.setKeyId(kid);
        keys.put(kid, k);
        return this;
    }

    /** The public JWKS of these keys. */
    public String jwks(String... kids) {
        List<JsonWebKey> published = new ArrayList<>();
        for (String kid : kids) published.add(key(kid));
        return new JsonWebKeySet(published).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
    }

    /** Publishes the public JWKS of these keys at {@code file}, replacing it atomically. */
    public void publish(Path file, String... kids) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, jwks(kids), StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The usual claims: this issuer and audience, {@code sub} = userId, issued at {@code iat}, until {@code exp}. */
    public static JwtClaims claims(long userId, Instant iat, Instant exp) {
        JwtClaims c = new JwtClaims();
        c.setIssuer(ISSUER);
        c.setAudience(AUDIENCE);
        c.setSubject(Long.toString(userId));
        c.setIssuedAt(NumericDate.fromSeconds(iat.getEpochSecond()));
        c.setExpirationTime(NumericDate.fromSeconds(exp.getEpochSecond()));
        return c;
    }

    /** A token for {@code userId}, issued now and good for an hour, signed with {@code kid} (named in its header). */
    public String token(String kid, long userId) throws JoseException {
        Instant now = Instant.now();
        return sign(kid, kid, claims(userId, now, now.plusSeconds(3600)));
    }

    /** {@code claims} signed with the key {@code signWith}, the header naming {@code kidInHeader} (null: none). */
    public String sign(String signWith, String kidInHeader, JwtClaims claims) throws JoseException {
        return sign(signWith, kidInHeader, claims, "JWT");
    }

    /** As {@link #sign(String, String, JwtClaims)}, with {@code typ} in the header (null: no typ, as some providers). */
    public String sign(String signWith, String kidInHeader, JwtClaims claims, String typ) throws JoseException {
        PublicJsonWebKey k = key(signWith);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(k.getPrivateKey());
        jws.setAlgorithmHeaderValue(
                k.getKeyType().equals("EC")
                        ? AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256
                        : AlgorithmIdentifiers.RSA_USING_SHA256);
        if (kidInHeader != null) jws.setKeyIdHeaderValue(kidInHeader);
        if (typ != null) jws.setHeader("typ", typ);
        return jws.getCompactSerialization();
    }

    private PublicJsonWebKey key(String kid) {
        PublicJsonWebKey k = keys.get(kid);
        if (k == null) throw new IllegalArgumentException("no key " + kid);
        return k;
    }
}
