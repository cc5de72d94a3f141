package dev.seckill.stack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * The TLS files of a local secured server (a Kafka broker, Redis, MariaDB), made with the JDK's own {@code keytool}
 * (the one of the running JVM): a CA of its own, the server's key and certificate signed by it for {@code 127.0.0.1}
 * and {@code localhost} (so clients verify the host name), and a truststore holding only the CA, which the clients are
 * given. All PKCS12 under one password made here, and as PEM files for servers built on OpenSSL ({@link #pem()});
 * valid 30 days — for a test or a local stack, never a real deployment.
 */
public record LocalTls(Path dir, String password, Path keystore, Path truststore) {

    /** The server's certificate chain, its private key (PKCS#8) and the CA's certificate, as PEM files. */
    public record Pem(Path certificate, Path key, Path ca) {}

    /** Makes the CA, the server's keystore and the clients' truststore in {@code dir}. */
    public static LocalTls create(Path dir) {
        String pw = UUID.randomUUID().toString();
        Path ca = dir.resolve("ca.p12");
        Path caCert = dir.resolve("ca.crt");
        Path keystore = dir.resolve("broker.p12");
        Path csr = dir.resolve("broker.csr");
        Path cert = dir.resolve("broker.crt");
        Path truststore = dir.resolve("truststore.p12");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + dir + ": " + e.getMessage());
        }
        keytool(pw, "-genkeypair", "-alias", "ca", "-dname", "CN=seckill local CA", "-ext", "bc:c", "-keystore", ca);
        keytool(pw, "-exportcert", "-alias", "ca", "-rfc", "-file", caCert, "-keystore", ca);
        keytool(pw, "-genkeypair", "-alias", "broker", "-dname", "CN=localhost", "-keystore", keystore);
        keytool(pw, "-certreq", "-alias", "broker", "-file", csr, "-keystore", keystore);
        keytool(
                pw,
                "-gencert",
                "-alias",
                "ca",
                "-infile",
                csr,
                "-outfile",
                cert,
                "-rfc",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-ext",
                "EKU=serverAuth,clientAuth",
                "-keystore",
                ca);
        // the chain in the broker's keystore: the CA first, then the signed certificate replaces the self-signed one
        keytool(pw, "-importcert", "-noprompt", "-alias", "ca", "-file", caCert, "-keystore", keystore);
        keytool(pw, "-importcert", "-noprompt", "-alias", "broker", "-file", cert, "-keystore", keystore);
        keytool(pw, "-importcert", "-noprompt", "-alias", "ca", "-file", caCert, "-keystore", truststore);
        return new LocalTls(dir, pw, keystore, truststore);
    }

    /**
     * Writes the server's chain, key and the CA as PEM ({@code server.crt}, {@code server.key} readable by the owner
     * only, {@code ca.crt}), read from the keystore: what redis-server and mariadbd take.
     */
    public Pem pem() {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keystore)) {
                ks.load(in, password.toCharArray());
            }
            Key key = ks.getKey("broker", password.toCharArray());
            Certificate[] chain = ks.getCertificateChain("broker");
            Path cert = dir.resolve("server.crt");
            Path keyFile = dir.resolve("server.key");
            StringBuilder certs = new StringBuilder();
            for (Certificate c : chain) certs.append(pem("CERTIFICATE", c.getEncoded()));
            Files.writeString(cert, certs);
            Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
            Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
            return new Pem(cert, keyFile, dir.resolve("ca.crt"));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the PEM files in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String password, Object... args) {
        // the C1 compiler only: a short-lived JVM, 2-3 s each otherwise on two busy cores
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC"));
        for (Object a : args) cmd.add(a.toString());
        boolean makesKey = cmd.contains("-genkeypair");
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", password));
        if (makesKey) cmd.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-keypass", password));
        if (makesKey || cmd.contains("-gencert")) cmd.addAll(List.of("-validity", "30"));
        ServerProcess.run(cmd, Duration.ofMinutes(1));
    }
}
