package dev.seckill.kit.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How every Kafka client of the services and the tools connects, beside {@link SharedSettings#KAFKA_BOOTSTRAP}: the
 * security protocol, the SASL identity, the TLS trust and key stores, a client properties file and any other client
 * property. {@code dev.seckill.kit.kafka.KafkaClients} turns them into the clients' properties, in this order, each
 * winning over the one before: {@link #CONFIG_FILE}, {@link #PROPERTY}, the named settings that are set.
 */
public final class KafkaSettings {
    private KafkaSettings() {}

    public static final Setting<String> SECURITY_PROTOCOL = Setting.text(
            "kafka.security.protocol",
            "",
            "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (empty: the config file's, else PLAINTEXT)");
    public static final Setting<String> SASL_MECHANISM = Setting.text(
            "kafka.sasl.mechanism",
            "",
            "SCRAM-SHA-512, SCRAM-SHA-256, PLAIN or OAUTHBEARER (empty: the config file's, else SCRAM-SHA-512 when a"
                    + " SASL user is set)");
    public static final Setting<String> SASL_USERNAME = Setting.text(
            "kafka.sasl.username",
            "",
            "the SASL user (SCRAM, PLAIN), or the OAuth client id (OAUTHBEARER): with the password the clients'"
                    + " sasl.jaas.config is generated (empty: none, or the config file's)");
    public static final Setting<String> SASL_PASSWORD = Setting.secret(
            "kafka.sasl.password", 0, "the SASL user's password, or the OAuth client secret (OAUTHBEARER)");
    public static final Setting<String> SSL_TRUSTSTORE_LOCATION = Setting.text(
            "kafka.ssl.truststore.location",
            "",
            "a truststore file (PKCS12 or JKS) with the CA that signed the brokers' certificates (empty: the JVM's"
                    + " CAs, enough for a managed cluster's public certificate)");
    public static final Setting<String> SSL_TRUSTSTORE_PASSWORD =
            Setting.secret("kafka.ssl.truststore.password", 0, "the truststore's password");
    public static final Setting<String> SSL_KEYSTORE_LOCATION = Setting.text(
            "kafka.ssl.keystore.location",
            "",
            "a keystore file (PKCS12 or JKS) with this client's certificate and key, for brokers that authenticate"
                    + " clients by TLS (mTLS; empty: none)");
    public static final Setting<String> SSL_KEYSTORE_PASSWORD =
            Setting.secret("kafka.ssl.keystore.password", 0, "the keystore's password");
    public static final Setting<String> SSL_KEY_PASSWORD =
            Setting.secret("kafka.ssl.key.password", 0, "the key's password in the keystore (empty: the keystore's)");
    public static final Setting<String> CONFIG_FILE = Setting.text(
            "kafka.config.file",
            "",
            "a Kafka client properties file, as Kafka's tools take with --command-config, read first: the"
                    + " SECKILL_KAFKA_PROPERTY_ variables and the settings above win over it (its bootstrap.servers is"
                    + " refused: SECKILL_KAFKA_BOOTSTRAP is the one address)");
    public static final SettingFamily PROPERTY = SettingFamily.of(
            "kafka.property",
            "any Kafka client property, given to every producer, consumer, Streams app and admin client:"
                    + " SECKILL_KAFKA_PROPERTY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM is"
                    + " ssl.endpoint.identification.algorithm (lower case, _ a dot, __ an underscore, ___ a dash; a JVM"
                    + " property -Dseckill.kafka.property.<name> keeps the name as written); what a client sets itself"
                    + " (group ids, acks, idempotence, its timeouts) wins");

    /**
     * The environment that gives a process started by a tool the same Kafka connection as {@code settings}: the
     * bootstrap, each of these settings that is set and each pass-through property.
     */
    public static Map<String, String> environment(Settings settings) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(SharedSettings.KAFKA_BOOTSTRAP.env(), settings.kafkaBootstrap());
        env.putAll(settings.environmentOf(all()));
        PROPERTY.read(settings).forEach((name, value) -> env.put(PROPERTY.envOf(name), value));
        return env;
    }

    public static List<Setting<?>> all() {
        return Setting.declaredIn(KafkaSettings.class);
    }

    public static List<SettingFamily> families() {
        return SettingFamily.declaredIn(KafkaSettings.class);
    }
}
