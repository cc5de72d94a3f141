package dev.seckill.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The TLS files of a local secured broker, made with the JDK's own {@code keytool} (the one of the running JVM): a CA
 * of its own, the broker's key and certificate signed by it for {@code 127.0.0.1} and {@code localhost} (so clients
 * verify the host name, Kafka's default), and a truststore holding only the CA, which the clients are given. All
 * PKCS12 under one password made here; valid 30 days — for a test or a local stack, never a real deployment.
 */
public record BrokerTls(Path dir, String password, Path keystore, Path truststore) {

    /** Makes the CA, the broker's keystore and the clients' truststore in {@code dir}. */
    public static BrokerTls create(Path dir) {
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
        return new BrokerTls(dir, pw, keystore, truststore);
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
