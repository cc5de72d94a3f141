package dev.seckill.stack;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

/**
 * A single-node KRaft cluster secured as a managed or ACL-protected one is ({@link BrokerSecurity}): clients
 * authenticate with SCRAM-SHA-512 over TLS, verifying the broker against a CA made at start ({@link LocalTls}), and an
 * authorizer lets each principal do only what an ACL grants it. The super user creates the other users (with Kafka's
 * Admin API) and the ACLs. In a fresh temporary folder on free ports; {@link #close()} stops it.
 */
public final class SecureKafka implements AutoCloseable {
    public static final String SUPER_USER = "admin";

    private final KafkaBroker broker;
    private final BrokerSecurity security;

    private SecureKafka(KafkaBroker broker, BrokerSecurity security) {
        this.broker = broker;
        this.security = security;
    }

    /** Makes the certificates, formats the storage with the super user's credential, starts and waits for the node. */
    public static SecureKafka start() {
        try {
            Path dir = ServerProcess.tempDir("seckill-secure-kafka-");
            BrokerSecurity security = new BrokerSecurity(
                    LocalTls.create(dir.resolve("tls")),
                    SUPER_USER,
                    UUID.randomUUID().toString(),
                    ServerProcess.freePort());
            KafkaBroker broker = new KafkaBroker(
                            dir.resolve("node"), ServerProcess.freePort(), ServerProcess.freePort())
                    .secured(security);
            SecureKafka kafka = new SecureKafka(broker, security);
            broker.start();
            return kafka;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SASL_SSL listener. */
    public String bootstrap() {
        return broker.bootstrap();
    }

    /** The listener without authentication: every client there is {@code User:ANONYMOUS}. */
    public String anonymousBootstrap() {
        return "127.0.0.1:" + security.anonymousPort();
    }

    /** The truststore with the CA that signed the broker's certificate. */
    public Path truststore() {
        return security.tls().truststore();
    }

    /** The settings (overrides) of a client of {@code user} on the SASL_SSL listener, for {@link Settings#and}. */
    public Map<String, String> clientSettings(String user, String password) {
        return security.client(bootstrap(), user, password);
    }

    /** Settings of the super user: every right, for setting up users, topics and ACLs. */
    public Settings superUser() {
        return broker.settings();
    }

    /** {@code base} with the super user's Kafka settings on top. */
    public Settings superUser(Settings base) {
        return base.and(security.client(bootstrap(), security.superUser(), security.superPassword()));
    }

    /**
     * Creates (or changes) SCRAM-SHA-512 users, as the super user, and returns once each of them can authenticate (the
     * broker applies a credential a moment after the controller has committed it).
     */
    public void createUsers(Map<String, String> passwords) {
        List<UserScramCredentialAlteration> upserts = passwords.entrySet().stream()
                .map(e -> (UserScramCredentialAlteration) new UserScramCredentialUpsertion(
                        e.getKey(), new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), e.getValue()))
                .toList();
        try (Admin admin = KafkaClients.admin(superUser())) {
            admin.alterUserScramCredentials(upserts).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating users");
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create the users " + passwords.keySet() + ": " + e.getMessage(), e);
        }
        passwords.forEach((user, password) -> ServerProcess.awaitReady(
                "user " + user + " on " + bootstrap(),
                () -> KafkaBroker.answersMetadata(Settings.with(clientSettings(user, password))),
                broker.process(),
                Duration.ofSeconds(30),
                broker.log()));
    }

    @Override
    public void close() {
        broker.stop();
    }
}
