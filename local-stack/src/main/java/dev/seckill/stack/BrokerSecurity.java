package dev.seckill.stack;

import java.util.List;
import java.util.Map;

/**
 * What secures a local node: clients on a SASL_SSL listener (SCRAM-SHA-512 over TLS with {@link LocalTls}'s
 * certificate), the controller on SASL_PLAINTEXT with PLAIN (KRaft's controllers cannot check SCRAM: its credentials
 * live in the metadata they serve), Kafka's {@code StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false},
 * so a principal may do only what an ACL grants it; and a PLAINTEXT listener on {@code anonymousPort}, as a cluster that
 * still has one during a migration: whoever connects there is {@code User:ANONYMOUS}, granted nothing.
 *
 * <p>One super user, {@code superUser}: the node's own identity on its controller and inter-broker connections (a node
 * must be authorised to register itself and to replicate, before any ACL exists) and the administrator who creates the
 * other users and the ACLs. Its SCRAM credential is written into the metadata when the storage is formatted
 * ({@code --add-scram}), so it exists before the node first starts.
 */
record BrokerSecurity(LocalTls tls, String superUser, String superPassword, int anonymousPort) {
    static final String MECHANISM = "SCRAM-SHA-512";
    static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    Map<String, String> serverProperties(int port, int controllerPort) {
        String scram = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + superUser
                + "\" password=\"" + superPassword + "\";";
        String plain = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + superUser
                + "\" password=\"" + superPassword + "\" user_" + superUser + "=\"" + superPassword + "\";";
        return Map.ofEntries(
                Map.entry(
                        "listeners",
                        "SASL_SSL://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort
                                + ",ANONYMOUS://127.0.0.1:" + anonymousPort),
                Map.entry(
                        "advertised.listeners",
                        "SASL_SSL://127.0.0.1:" + port + ",ANONYMOUS://127.0.0.1:" + anonymousPort),
                Map.entry(
                        "listener.security.protocol.map",
                        "SASL_SSL:SASL_SSL,CONTROLLER:SASL_PLAINTEXT,ANONYMOUS:PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "SASL_SSL"),
                Map.entry("sasl.enabled.mechanisms", MECHANISM),
                Map.entry("sasl.mechanism.inter.broker.protocol", MECHANISM),
                Map.entry("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", scram),
                Map.entry("sasl.mechanism.controller.protocol", "PLAIN"),
                Map.entry("listener.name.controller.sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("listener.name.controller.plain.sasl.jaas.config", plain),
                Map.entry("ssl.keystore.type", "PKCS12"),
                Map.entry("ssl.keystore.location", tls.keystore().toString()),
                Map.entry("ssl.keystore.password", tls.password()),
                Map.entry("ssl.key.password", tls.password()),
                Map.entry("ssl.truststore.type", "PKCS12"),
                Map.entry("ssl.truststore.location", tls.truststore().toString()),
                Map.entry("ssl.truststore.password", tls.password()),
                Map.entry("authorizer.class.name", AUTHORIZER),
                Map.entry("allow.everyone.if.no.acl.found", "false"),
                Map.entry("super.users", "User:" + superUser));
    }

    /** The super user's SCRAM credential, written by {@code kafka-storage format}. */
    List<String> formatArgs() {
        return List.of("--add-scram", MECHANISM + "=[name=" + superUser + ",password=" + superPassword + "]");
    }

    /** The settings ({@code dev.seckill.kit.config.Settings} overrides) of a client of {@code user} on the SASL_SSL listener. */
    Map<String, String> client(String bootstrap, String user, String password) {
        return Map.of(
                "kafka.bootstrap", bootstrap,
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.mechanism", MECHANISM,
                "kafka.sasl.username", user,
                "kafka.sasl.password", password,
                "kafka.ssl.truststore.location", tls.truststore().toString(),
                "kafka.ssl.truststore.password", tls.password());
    }
}
