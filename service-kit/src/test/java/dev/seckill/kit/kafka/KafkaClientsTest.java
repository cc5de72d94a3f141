package dev.seckill.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.kit.config.BadSetting;
import dev.seckill.kit.config.KafkaSettings;
import dev.seckill.kit.config.SettingFamily;
import dev.seckill.kit.config.Settings;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one home of the clients' connection: what each setting becomes, what wins, and one line for what cannot work. */
@Tag("fast")
class KafkaClientsTest {
    @TempDir
    Path dir;

    static Settings with(String... kv) {
        Map<String, String> m = new HashMap<>(Map.of(Settings.KAFKA_BOOTSTRAP, "h:9093"));
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return Settings.with(m);
    }

    Path truststore(String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        Path file = dir.resolve("trust-" + password + ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
        return file;
    }

    @Test
    void plaintextByDefault_onlyTheBootstrap() {
        assertThat(KafkaClients.common(with())).containsExactlyEntriesOf(Map.of("bootstrap.servers", "h:9093"));
    }

    @Test
    void saslSslWithScram_theJaasLineIsGeneratedAndQuoted() throws Exception {
        Path trust = truststore("changeit");
        Map<String, Object> p = KafkaClients.common(with(
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.username", "gate\"way",
                "kafka.sasl.password", "p\\w",
                "kafka.ssl.truststore.location", trust.toString(),
                "kafka.ssl.truststore.password", "changeit"));
        assertThat(p)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"gate\\\"way\""
                                + " password=\"p\\\\w\";")
                .containsEntry("ssl.truststore.location", trust.toString())
                .containsEntry("ssl.truststore.password", "changeit");
    }

    @Test
    void oauthbearer_clientCredentialsAndTheLoginHandler() {
        Map<String, Object> p = KafkaClients.common(with(
                "kafka.security.protocol", "SASL_SSL",
                "kafka.sasl.mechanism", "OAUTHBEARER",
                "kafka.sasl.username", "client-1",
                "kafka.sasl.password", "s3cret",
                "kafka.property.sasl.oauthbearer.token.endpoint.url", "https://idp.example/token"));
        assertThat(p)
                .containsEntry("sasl.oauthbearer.client.credentials.client.id", "client-1")
                .containsEntry("sasl.oauthbearer.client.credentials.client.secret", "s3cret")
                .containsEntry("sasl.login.callback.handler.class", KafkaClients.OAUTH_LOGIN_HANDLER)
                .containsEntry("sasl.oauthbearer.token.endpoint.url", "https://idp.example/token")
                .containsEntry("sasl.jaas.config", KafkaClients.OAUTHBEARER + " required ;");
    }

    @Test
    void theFileThenThePassThroughThenTheNamedSettings() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, """
                security.protocol=SASL_SSL
                sasl.mechanism=PLAIN
                sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="f" password="f";
                client.dns.lookup=use_all_dns_ips
                ssl.endpoint.identification.algorithm=https
                """);
        Map<String, Object> p = KafkaClients.common(with(
                "kafka.config.file", file.toString(),
                "kafka.property.ssl.endpoint.identification.algorithm", "",
                "kafka.property.security.protocol", "SASL_PLAINTEXT",
                "kafka.security.protocol", "SASL_SSL"));
        assertThat(p)
                .containsEntry("client.dns.lookup", "use_all_dns_ips")
                .containsEntry("sasl.mechanism", "PLAIN")
                .as("the pass-through wins over the file")
                .containsEntry("ssl.endpoint.identification.algorithm", "")
                .as("a named setting wins over both")
                .containsEntry("security.protocol", "SASL_SSL");
        assertThat(KafkaClients.config(with(), Map.of("group.id", "g"))).containsEntry("group.id", "g");
    }

    @Test
    void environmentNamesMapToEveryClientPropertyAndBack() {
        assertThat(SettingFamily.memberOfEnv("SSL_ENDPOINT_IDENTIFICATION_ALGORITHM"))
                .isEqualTo("ssl.endpoint.identification.algorithm");
        assertThat(SettingFamily.memberOfEnv("MY__PLUGIN___OPTION")).isEqualTo("my_plugin-option");
        Stream.of(ProducerConfig.configNames(), ConsumerConfig.configNames(), AdminClientConfig.configNames())
                .flatMap(names -> names.stream())
                .forEach(name -> {
                    String env = KafkaSettings.PROPERTY.envOf(name);
                    assertThat(env).matches("SECKILL_KAFKA_PROPERTY_[A-Z0-9_]+");
                    assertThat(SettingFamily.memberOfEnv(env.substring("SECKILL_KAFKA_PROPERTY_".length())))
                            .as(env)
                            .isEqualTo(name);
                });
    }

    @Test
    void aJvmPropertyKeepsItsNameAndAnOverrideWinsOverIt() {
        System.setProperty("seckill.kafka.property.client.rack", "rack-a");
        System.setProperty("seckill.kafka.property.My_Plugin.Option", "x");
        try {
            assertThat(KafkaClients.common(with()))
                    .containsEntry("client.rack", "rack-a")
                    .containsEntry("My_Plugin.Option", "x");
            assertThat(KafkaClients.common(with("kafka.property.client.rack", "rack-b")))
                    .containsEntry("client.rack", "rack-b");
        } finally {
            System.clearProperty("seckill.kafka.property.client.rack");
            System.clearProperty("seckill.kafka.property.My_Plugin.Option");
        }
    }

    @Test
    void theEnvironmentOfAChildProcessCarriesTheConnection() {
        Settings s = with(
                "kafka.security.protocol", "SASL_SSL",
                "kafka.property.ssl.endpoint.identification.algorithm", "");
        assertThat(KafkaSettings.environment(s))
                .containsEntry("SECKILL_KAFKA_BOOTSTRAP", "h:9093")
                .containsEntry("SECKILL_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                .containsEntry("SECKILL_KAFKA_PROPERTY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "");
    }

    static AbstractThrowableAssert<?, ?> refused(Settings s) {
        return assertThatThrownBy(() -> KafkaClients.common(s))
                .isInstanceOf(BadSetting.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
                .hasMessageStartingWith("Kafka client configuration: ");
    }

    @Test
    void whatCannotWorkIsOneReadableLine() throws Exception {
        refused(with("kafka.security.protocol", "TLS"))
                .hasMessageContaining("security.protocol 'TLS' is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL")
                .hasMessageContaining("SECKILL_KAFKA_SECURITY_PROTOCOL");
        refused(with("kafka.security.protocol", "SSL", "kafka.ssl.truststore.location", dir + "/missing.p12"))
                .hasMessageContaining("ssl.truststore.location " + dir + "/missing.p12 is not a readable file");
        Path trust = truststore("right");
        refused(with(
                        "kafka.security.protocol", "SSL",
                        "kafka.ssl.truststore.location", trust.toString(),
                        "kafka.ssl.truststore.password", "wrong"))
                .hasMessageContaining("does not open with its password");
        refused(with("kafka.ssl.truststore.location", trust.toString()))
                .hasMessageContaining("security.protocol is PLAINTEXT: set SECKILL_KAFKA_SECURITY_PROTOCOL=SSL");
        refused(with("kafka.security.protocol", "SASL_SSL"))
                .hasMessageContaining("needs an identity: set SECKILL_KAFKA_SASL_USERNAME");
        refused(with("kafka.sasl.username", "u", "kafka.sasl.password", "p"))
                .hasMessageContaining("security.protocol is PLAINTEXT: set SECKILL_KAFKA_SECURITY_PROTOCOL=SASL_SSL");
        refused(with("kafka.security.protocol", "SASL_SSL", "kafka.sasl.username", "u"))
                .hasMessageContaining("go together");
        refused(with("kafka.config.file", dir + "/nope.properties")).hasMessageContaining("is not a readable file");
        refused(with("kafka.property.bootstrap.servers", "elsewhere:9092"))
                .hasMessageContaining("set SECKILL_KAFKA_BOOTSTRAP instead");
    }

    @Test
    void requireSaysTheConfigurationBeforeTryingToConnect() {
        assertThatThrownBy(() -> KafkaClients.require(with("kafka.security.protocol", "TLS"), "hint"))
                .isInstanceOf(BadSetting.class);
    }
}
