package dev.seckill.kit.kafka;

import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.KafkaSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * What Kafka's clients would refuse late, with a stack trace or a silent retry loop, said first in one line: an
 * unknown security protocol, a SASL protocol without an identity or an identity without one, a TLS store on a
 * protocol without TLS, a store that is not there or does not open with its password.
 */
final class KafkaSecurityCheck {
    private static final List<String> PROTOCOLS = List.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");

    private KafkaSecurityCheck() {}

    static void check(Map<String, Object> p) {
        String given = text(p, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
        String protocol = given.toUpperCase(Locale.ROOT);
        if (!PROTOCOLS.contains(protocol))
            throw bad("security.protocol '" + given + "' is not one of " + String.join(", ", PROTOCOLS) + " ("
                    + KafkaSettings.SECURITY_PROTOCOL.env() + ")");
        boolean sasl = protocol.startsWith("SASL_");
        boolean tls = protocol.endsWith("SSL");
        if (!sasl && p.containsKey(SaslConfigs.SASL_JAAS_CONFIG))
            throw bad("a SASL identity is set (" + KafkaSettings.SASL_USERNAME.env() + " or sasl.jaas.config) but"
                    + " security.protocol is " + protocol + ": set " + KafkaSettings.SECURITY_PROTOCOL.env()
                    + "=SASL_SSL");
        String mechanism = text(p, SaslConfigs.SASL_MECHANISM, SaslConfigs.DEFAULT_SASL_MECHANISM);
        // a JAAS file (-Djava.security.auth.login.config, its KafkaClient section) is the other way to give one
        boolean jaasFile = System.getProperty("java.security.auth.login.config") != null;
        if (sasl && !p.containsKey(SaslConfigs.SASL_JAAS_CONFIG) && !jaasFile)
            throw bad("security.protocol " + protocol + " with SASL mechanism " + mechanism + " needs an identity: set "
                    + KafkaSettings.SASL_USERNAME.env() + " and " + KafkaSettings.SASL_PASSWORD.env()
                    + " (or give sasl.jaas.config)");
        for (String store : List.of("ssl.truststore", "ssl.keystore")) {
            if (text(p, store + ".location", "").isEmpty()) continue;
            if (!tls)
                throw bad(store + ".location is set but security.protocol is " + protocol + ": set "
                        + KafkaSettings.SECURITY_PROTOCOL.env() + "=SSL or SASL_SSL");
            opens(p, store);
        }
    }

    /** A JKS or PKCS12 store opens with its password (other types, e.g. PEM, are left to Kafka). */
    private static void opens(Map<String, Object> p, String store) {
        Path file = Path.of(text(p, store + ".location", ""));
        String setting = store.equals("ssl.truststore")
                ? KafkaSettings.SSL_TRUSTSTORE_LOCATION.env()
                : KafkaSettings.SSL_KEYSTORE_LOCATION.env();
        if (!Files.isRegularFile(file) || !Files.isReadable(file))
            throw bad(store + ".location " + file + " is not a readable file (" + setting + ")");
        String type =
                text(p, store + ".type", SslConfigs.DEFAULT_SSL_KEYSTORE_TYPE).toUpperCase(Locale.ROOT);
        if (!type.equals("JKS") && !type.equals("PKCS12")) return;
        String password = text(p, store + ".password", null);
        try {
            KeyStore.getInstance(file.toFile(), password == null ? null : password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw bad(store + ".location " + file + " does not open with "
                    + (password == null ? "no password" : "its password") + " (" + setting + "): " + e.getMessage());
        }
    }

    private static String text(Map<String, Object> p, String key, String fallback) {
        Object v = p.get(key);
        return v == null ? fallback : v.toString().strip();
    }

    private static BadSetting bad(String message) {
        return new BadSetting(KafkaClients.PREFIX + message);
    }
}
