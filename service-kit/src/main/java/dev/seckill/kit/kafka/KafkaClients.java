package dev.seckill.kit.kafka;

import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.Setting;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.Unreachable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The one place a Kafka client's connection is configured: every producer, consumer, Streams app and admin client of
 * the services and the tools starts from {@link #common(Settings)} — the bootstrap servers and the security the
 * {@link KafkaSettings} describe (the config file, then the {@code SECKILL_KAFKA_PROPERTY_*} pass-through, then the
 * named settings) — and adds what is its own on top. A configuration that cannot work (an unknown protocol, a store
 * that is not there or does not open, a SASL protocol without an identity) is a {@link BadSetting}: one readable line.
 */
public final class KafkaClients {
    static final String PREFIX = "Kafka client configuration: ";
    static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule";
    static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
    static final String OAUTHBEARER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    static final String OAUTH_LOGIN_HANDLER =
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";

    private KafkaClients() {}

    /** Bootstrap and security for any client, checked. */
    public static Map<String, Object> common(Settings settings) {
        Map<String, Object> p = new HashMap<>(fromFile(settings));
        p.putAll(KafkaSettings.PROPERTY.read(settings));
        if (p.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG))
            throw new BadSetting(PREFIX + "bootstrap.servers is given in " + KafkaSettings.CONFIG_FILE.env() + " or a "
                    + KafkaSettings.PROPERTY.env() + " variable: set " + "SECKILL_KAFKA_BOOTSTRAP instead");
        named(settings, p);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.kafkaBootstrap());
        KafkaSecurityCheck.check(p);
        return p;
    }

    /** {@link #common} with the client's own properties on top. */
    public static Map<String, Object> config(Settings settings, Map<String, ?> own) {
        Map<String, Object> p = common(settings);
        p.putAll(own);
        return p;
    }

    /** Checks the configuration ({@link BadSetting}), then that something accepts connections at the bootstrap. */
    public static void require(Settings settings, String hint) {
        common(settings);
        Unreachable.requireTcp("Kafka", settings.kafkaBootstrap(), hint);
    }

    public static Admin admin(Settings settings) {
        return Admin.create(common(settings));
    }

    public static Admin admin(Settings settings, Map<String, ?> own) {
        return Admin.create(config(settings, own));
    }

    /** A consumer of String keys and byte values (the services' codecs decode the values themselves). */
    public static KafkaConsumer<String, byte[]> consumer(Settings settings, Map<String, ?> own) {
        return consumer(settings, own, new StringDeserializer(), new ByteArrayDeserializer());
    }

    public static <K, V> KafkaConsumer<K, V> consumer(
            Settings settings, Map<String, ?> own, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(config(settings, own), keys, values);
    }

    /** A producer as configured, nothing added: the pipeline's writers use {@link ReliableProducers}. */
    public static <K, V> KafkaProducer<K, V> producer(
            Settings settings, Map<String, ?> own, Serializer<K> keys, Serializer<V> values) {
        return new KafkaProducer<>(config(settings, own), keys, values);
    }

    private static void named(Settings s, Map<String, Object> p) {
        put(s, KafkaSettings.SECURITY_PROTOCOL, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, p);
        put(s, KafkaSettings.SSL_TRUSTSTORE_LOCATION, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, p);
        put(s, KafkaSettings.SSL_TRUSTSTORE_PASSWORD, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, p);
        put(s, KafkaSettings.SSL_KEYSTORE_LOCATION, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, p);
        put(s, KafkaSettings.SSL_KEYSTORE_PASSWORD, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, p);
        put(s, KafkaSettings.SSL_KEY_PASSWORD, SslConfigs.SSL_KEY_PASSWORD_CONFIG, p);
        put(s, KafkaSettings.SASL_MECHANISM, SaslConfigs.SASL_MECHANISM, p);
        String user = s.get(KafkaSettings.SASL_USERNAME);
        String password = s.get(KafkaSettings.SASL_PASSWORD);
        if (user.isEmpty() && password.isEmpty()) return;
        if (user.isEmpty() || password.isEmpty())
            throw new BadSetting(PREFIX + KafkaSettings.SASL_USERNAME.env() + " and "
                    + KafkaSettings.SASL_PASSWORD.env() + " go together: one of them is empty");
        String mechanism =
                p.getOrDefault(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512").toString();
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        switch (mechanism) {
            case "SCRAM-SHA-256", "SCRAM-SHA-512" -> p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(SCRAM, user, password));
            case "PLAIN" -> p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(PLAIN, user, password));
            case "OAUTHBEARER" -> {
                // the client-credentials grant: the token endpoint comes as SECKILL_KAFKA_PROPERTY_SASL_OAUTHBEARER_
                // TOKEN_ENDPOINT_URL (and the JVM must allow it: -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls)
                p.put(SaslConfigs.SASL_JAAS_CONFIG, OAUTHBEARER + " required ;");
                p.put(SaslConfigs.SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID, user);
                p.put(SaslConfigs.SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET, password);
                p.putIfAbsent(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, OAUTH_LOGIN_HANDLER);
            }
            default ->
                throw new BadSetting(PREFIX + KafkaSettings.SASL_USERNAME.env()
                        + " makes the sasl.jaas.config of SCRAM-SHA-256, SCRAM-SHA-512, PLAIN or OAUTHBEARER, not of "
                        + mechanism + ": give it as SECKILL_KAFKA_PROPERTY_SASL_JAAS_CONFIG instead");
        }
    }

    /** A login module's JAAS line with a user and password, quoted as JAAS reads them. */
    static String jaas(String module, String user, String password) {
        return module + " required username=\"" + quoted(user) + "\" password=\"" + quoted(password) + "\";";
    }

    private static String quoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static void put(Settings s, Setting<String> setting, String property, Map<String, Object> p) {
        String value = s.get(setting).strip();
        if (!value.isEmpty()) p.put(property, value);
    }

    private static Map<String, Object> fromFile(Settings s) {
        String name = s.get(KafkaSettings.CONFIG_FILE);
        if (name.isBlank()) return Map.of();
        Path file = Path.of(name);
        if (!Files.isRegularFile(file) || !Files.isReadable(file))
            throw new BadSetting(PREFIX + KafkaSettings.CONFIG_FILE.env() + " " + file + " is not a readable file");
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in); // as Kafka's tools read --command-config
        } catch (IOException | IllegalArgumentException e) {
            throw new BadSetting(
                    PREFIX + KafkaSettings.CONFIG_FILE.env() + " " + file + " cannot be read: " + e.getMessage());
        }
        Map<String, Object> out = new HashMap<>();
        props.stringPropertyNames().forEach(k -> out.put(k, props.getProperty(k)));
        return out;
    }
}
