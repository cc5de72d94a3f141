package dev.seckill.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.cli.Configuration;
import dev.seckill.kit.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment files ({@code deploy/}) parsed and checked for what running this system needs: no schema-aware
 * validator for Kubernetes runs here (no registry serves kubeconform's schemas), so the fields that matter are checked
 * one by one — probes on {@code /health} where a service has one, resources, settings only as known {@code SECKILL_*}
 * variables, the stream's state directory and disruption budget, topics with RF 3 and {@code min.insync.replicas=2}.
 */
class DeploymentManifestsTest {
    static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
    /** The services' settings and the variables their logback.xml reads (SECKILL_LOG_FORMAT=json in an image). */
    static final Set<String> KNOWN = Stream.concat(
                    Configuration.all().stream().map(Setting::env),
                    Configuration.logging().stream().map(Configuration.EnvOnly::env))
            .collect(Collectors.toSet());
    /** The port each service's probes must use, and whether that port serves /health. */
    static final Map<String, Integer> PORTS =
            Map.of("ingress-gateway", 8080, "stock-stream", 9402, "order-writer", 9403, "reconciler", 9404);

    static final Set<String> WITH_HEALTH = Set.of("ingress-gateway", "stock-stream", "order-writer");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> k8s() throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        try (var files = Files.list(DEPLOY.resolve("k8s"))) {
            for (Path f : files.sorted().toList()) {
                for (Object doc : new Yaml().loadAll(Files.readString(f)))
                    if (doc != null) docs.add((Map<String, Object>) doc);
            }
        }
        return docs;
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object n = node;
        for (String p : path)
            n = n instanceof Map<?, ?> m ? m.get(p) : n instanceof List<?> l ? l.get(Integer.parseInt(p)) : null;
        return (T) n;
    }

    static List<Map<String, Object>> kind(List<Map<String, Object>> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
    }

    @Test
    void everyServiceRunsWithProbesResourcesAndOnlyKnownSettings() throws IOException {
        List<Map<String, Object>> docs = k8s();
        List<Map<String, Object>> workloads = new ArrayList<>(kind(docs, "Deployment"));
        workloads.addAll(kind(docs, "StatefulSet"));
        assertThat(workloads)
                .extracting(w -> (String) at(w, "metadata", "name"))
                .containsExactlyInAnyOrderElementsOf(PORTS.keySet());
        for (Map<String, Object> w : workloads) {
            String name = at(w, "metadata", "name");
            Map<String, Object> c = at(w, "spec", "template", "spec", "containers", "0");
            assertThat((Object) at(w, "spec", "template", "spec", "securityContext", "runAsNonRoot"))
                    .as(name + " non-root")
                    .isEqualTo(true);
            // liveness and start-up on /live (never on Kafka, Redis or the database), readiness on /health
            for (String probe : List.of("startupProbe", "livenessProbe"))
                assertThat((String) at(c, probe, "httpGet", "path"))
                        .as(name + " " + probe)
                        .isEqualTo("/live");
            for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
                assertThat((Integer) at(c, probe, "httpGet", "port"))
                        .as(name + " " + probe + " port")
                        .isEqualTo(PORTS.get(name));
            }
            assertThat((String) at(c, "readinessProbe", "httpGet", "path"))
                    .as(name + " readiness")
                    .isEqualTo(WITH_HEALTH.contains(name) ? "/health" : "/metrics");
            assertThat((Object) at(c, "resources", "requests", "cpu"))
                    .as(name + " cpu request")
                    .isNotNull();
            assertThat((Object) at(c, "resources", "requests", "memory"))
                    .as(name + " memory request")
                    .isNotNull();
            assertThat((Object) at(c, "resources", "limits", "memory"))
                    .as(name + " memory limit")
                    .isNotNull();
            assertThat(c.get("envFrom").toString()).contains("seckill-config").contains("seckill-secrets");
        }
        Map<String, Object> config = kind(docs, "ConfigMap").get(0);
        Map<String, Object> secret = kind(docs, "Secret").get(0);
        Set<String> keys = new TreeSet<>(((Map<String, Object>) config.get("data")).keySet());
        keys.addAll(((Map<String, Object>) secret.get("stringData")).keySet());
        assertThat(KNOWN).as("every variable set is one the services read").containsAll(keys);
        assertThat(((Map<String, Object>) secret.get("stringData")).keySet())
                .as("secrets are not in the ConfigMap")
                .contains("SECKILL_GATEWAY_AUTH_SECRET", "SECKILL_GATEWAY_PAYMENT_SECRET", "SECKILL_DB_PASSWORD");
        assertThat(((Map<String, Object>) config.get("data")).keySet())
                .noneMatch(k -> k.contains("SECRET") || k.contains("PASSWORD"));
    }

    @Test
    void theStreamKeepsItsStateDirectory_atMostOneInstanceIsDisrupted_andTopicsAreReplicatedThrice()
            throws IOException {
        List<Map<String, Object>> docs = k8s();
        Map<String, Object> stream = kind(docs, "StatefulSet").get(0);
        assertThat((String) at(stream, "spec", "template", "spec", "containers", "0", "volumeMounts", "0", "mountPath"))
                .isEqualTo("/var/lib/seckill/streams");
        assertThat(((Map<String, Object>) kind(docs, "ConfigMap").get(0).get("data")).get("SECKILL_STREAM_STATE_DIR"))
                .isEqualTo("/var/lib/seckill/streams");
        Map<String, Object> pdb = kind(docs, "PodDisruptionBudget").get(0);
        assertThat((Object) at(pdb, "spec", "selector", "matchLabels", "app")).isEqualTo("stock-stream");
        assertThat((Object) at(pdb, "spec", "maxUnavailable")).isEqualTo(1);
        String job = kind(docs, "Job").get(0).toString();
        assertThat(job)
                .contains("--replication-factor 3")
                .contains("min.insync.replicas=2")
                .contains("seckill.ledger")
                .contains("retention.ms=-1");
    }

    @Test
    void composeRunsTheFourServicesBesideThreeBrokersRedisAndMysql_withKnownSettingsOnly() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(DEPLOY.resolve("compose.yaml")));
        Map<String, Object> services = at(compose, "services");
        assertThat(services.keySet())
                .contains(
                        "kafka-1",
                        "kafka-2",
                        "kafka-3",
                        "redis",
                        "mysql",
                        "ingress-gateway",
                        "stock-stream",
                        "order-writer",
                        "reconciler");
        for (String s : List.of("kafka-1", "kafka-2", "kafka-3")) {
            assertThat((Object) at(services, s, "environment", "KAFKA_MIN_INSYNC_REPLICAS"))
                    .isEqualTo("2");
            assertThat((Object) at(services, s, "environment", "KAFKA_DEFAULT_REPLICATION_FACTOR"))
                    .isEqualTo("3");
        }
        for (String s : PORTS.keySet())
            assertThat(at(services, s, "env_file").toString()).contains("seckill.env");
        Set<String> env = new TreeSet<>();
        for (String line : Files.readAllLines(DEPLOY.resolve("seckill.env"))) {
            if (!line.isBlank() && !line.startsWith("#")) env.add(line.substring(0, line.indexOf('=')));
        }
        assertThat(env).isNotEmpty();
        assertThat(KNOWN)
                .as("every variable in seckill.env is one the services read")
                .containsAll(env);
    }
}
