package dev.seckill.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.cli.Configuration;
import dev.seckill.kit.config.Setting;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment files ({@code deploy/}) checked for what running this system needs. The Kubernetes manifests are read
 * through the object model ({@link K8sModel}, strict: {@link ManifestModelTest}; the restricted profile:
 * {@link RestrictedProfileTest}); here, the fields that matter one by one — probes on {@code /health} and {@code /live}
 * at ports the containers declare, memory requests equal to limits and sized for the heap, a budget and a spread per
 * workload, grace periods longer than each service's close, the stream's headless Service and state directory,
 * settings only as known {@code SECKILL_*} variables, topics with RF 3 and {@code min.insync.replicas=2}.
 */
@Tag("fast")
class DeploymentManifestsTest {
    static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
    /** The services' settings and the variables their logback.xml reads (SECKILL_LOG_FORMAT=json in an image). */
    static final Set<String> KNOWN = Stream.of(
                    Configuration.all().stream().map(Setting::env),
                    // a secret may come from a file: <ENV>_FILE
                    Configuration.all().stream().filter(Setting::isSecret).map(x -> x.env() + "_FILE"),
                    Configuration.logging().stream().map(Configuration.EnvOnly::env))
            .flatMap(x -> x)
            .collect(Collectors.toSet());
    /** The port each service's probes use: the gateway's public one, the others' admin one. */
    static final Map<String, Integer> PORTS =
            Map.of("ingress-gateway", 8080, "stock-stream", 9402, "order-writer", 9403, "reconciler", 9404);
    /** Each service's /metrics port (the gateway's admin port, SECKILL_GATEWAY_METRICS_PORT). */
    static final Map<String, Integer> METRICS =
            Map.of("ingress-gateway", 9401, "stock-stream", 9402, "order-writer", 9403, "reconciler", 9404);
    /** The heap each service needs (the images give the heap 75% of the memory limit). */
    static final Map<String, Long> HEAP = Map.of(
            "ingress-gateway",
            1L << 30,
            "stock-stream",
            1L << 30,
            "order-writer",
            512L << 20,
            "reconciler",
            512L << 20);
    /** What each service's close on SIGTERM may take at most, in seconds (the grace period must exceed it). */
    static final Map<String, Integer> CLOSE_SECONDS =
            Map.of("ingress-gateway", 15 + 10, "stock-stream", 30, "order-writer", 30 + 30 + 5 + 5, "reconciler", 30);

    /** Each workload (Deployment or StatefulSet) by name: its pod template. */
    static Map<String, PodTemplateSpec> workloads(List<HasMetadata> docs) {
        Map<String, PodTemplateSpec> w = new TreeMap<>();
        K8sModel.of(docs, Deployment.class)
                .forEach(d -> w.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        K8sModel.of(docs, StatefulSet.class)
                .forEach(d -> w.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        return w;
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object n = node;
        for (String p : path) n = n instanceof Map<?, ?> m ? m.get(p) : null;
        return (T) n;
    }

    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return !selector.isEmpty() && labels.entrySet().containsAll(selector.entrySet());
    }

    static boolean declares(Container c, IntOrString port) {
        return c.getPorts().stream()
                .anyMatch(p -> port.getIntVal() != null
                        ? p.getContainerPort().equals(port.getIntVal())
                        : port.getStrVal().equals(p.getName()));
    }

    static long bytes(Map<String, Quantity> resources, String what) {
        return Quantity.getAmountInBytes(resources.get(what)).longValueExact();
    }

    @Test
    void everyServiceRunsWithProbesResourcesAndOnlyKnownSettings() throws IOException {
        List<HasMetadata> docs = K8sModel.all();
        Map<String, PodTemplateSpec> workloads = workloads(docs);
        assertThat(workloads.keySet()).containsExactlyInAnyOrderElementsOf(PORTS.keySet());
        workloads.forEach((name, t) -> {
            Container c = t.getSpec().getContainers().get(0);
            assertThat(c.getImage())
                    .as(name + " image: local, never a public registry's name")
                    .isEqualTo("localhost/seckill/" + name + ":0.1.0");
            // liveness and start-up on /live (never on Kafka, Redis or the database), readiness on /health
            assertThat(c.getStartupProbe().getHttpGet().getPath())
                    .as(name + " startup")
                    .isEqualTo("/live");
            assertThat(c.getLivenessProbe().getHttpGet().getPath())
                    .as(name + " liveness")
                    .isEqualTo("/live");
            assertThat(c.getReadinessProbe().getHttpGet().getPath())
                    .as(name + " readiness")
                    .isEqualTo("/health");
            for (Probe probe : List.of(c.getReadinessProbe(), c.getLivenessProbe(), c.getStartupProbe())) {
                IntOrString port = probe.getHttpGet().getPort();
                assertThat(port.getIntVal()).as(name + " probe port").isEqualTo(PORTS.get(name));
                assertThat(declares(c, port))
                        .as(name + " probe port " + port + " is a containerPort")
                        .isTrue();
            }
            assertThat(c.getPorts())
                    .as(name + " metrics port")
                    .anySatisfy(p -> assertThat(p.getName() + ":" + p.getContainerPort())
                            .isEqualTo("metrics:" + METRICS.get(name)));
            assertThat(t.getMetadata().getAnnotations())
                    .as(name + " scraped")
                    .containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port", String.valueOf(METRICS.get(name)));
            assertThat(c.getEnvFrom())
                    .extracting(e -> e.getConfigMapRef() != null
                            ? "config:" + e.getConfigMapRef().getName()
                            : "secret:" + e.getSecretRef().getName())
                    .containsExactly("config:seckill-config", "secret:" + name + "-secrets");
        });
        ConfigMap config = K8sModel.of(docs, ConfigMap.class).get(0);
        assertThat(KNOWN)
                .as("every variable set is one the services read")
                .containsAll(config.getData().keySet());
        assertThat(K8sModel.of(docs, Secret.class))
                .as("no secret value in the files: each service's Secret is made per cluster (config.yaml)")
                .isEmpty();
        assertThat(config.getData().keySet()).noneMatch(k -> k.contains("SECRET") || k.contains("PASSWORD"));
        assertThat(config.getData()).containsEntry("SECKILL_ADMIN_HOST", "0.0.0.0");
    }

    @Test
    void memoryRequestsEqualLimitsAndHoldTheHeap_everyContainerHasACpuRequestAndNoCpuLimit() throws IOException {
        List<HasMetadata> docs = K8sModel.all();
        Map<String, PodTemplateSpec> all = new TreeMap<>(workloads(docs));
        K8sModel.of(docs, Job.class)
                .forEach(j -> all.put(j.getMetadata().getName(), j.getSpec().getTemplate()));
        all.forEach((name, t) -> {
            for (Container c : t.getSpec().getContainers()) {
                ResourceRequirements r = c.getResources();
                assertThat(r.getRequests()).as(name + " cpu request").containsKey("cpu");
                assertThat(r.getLimits()).as(name + " no cpu limit").doesNotContainKey("cpu");
                assertThat(bytes(r.getRequests(), "memory"))
                        .as(name + " memory request = limit")
                        .isEqualTo(bytes(r.getLimits(), "memory"));
            }
        });
        HEAP.forEach((name, heap) -> assertThat(bytes(
                                all.get(name)
                                        .getSpec()
                                        .getContainers()
                                        .get(0)
                                        .getResources()
                                        .getLimits(),
                                "memory")
                        * 3
                        / 4)
                .as(name + " heap (75% of the limit)")
                .isGreaterThanOrEqualTo(heap));
    }

    @Test
    void everyWorkloadHasABudget_aSpreadOverZonesAndNodes_andAGracePeriodLongerThanItsClose() throws IOException {
        List<HasMetadata> docs = K8sModel.all();
        List<PodDisruptionBudget> pdbs = K8sModel.of(docs, PodDisruptionBudget.class);
        workloads(docs).forEach((name, t) -> {
            Map<String, String> labels = t.getMetadata().getLabels();
            assertThat(pdbs)
                    .as(name + " budget")
                    .filteredOn(b -> selects(b.getSpec().getSelector().getMatchLabels(), labels))
                    .singleElement()
                    .satisfies(b -> assertThat(b.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1)));
            List<TopologySpreadConstraint> spread = t.getSpec().getTopologySpreadConstraints();
            assertThat(spread)
                    .as(name + " spread")
                    .extracting(s -> s.getTopologyKey() + "=" + s.getWhenUnsatisfiable())
                    .containsExactlyInAnyOrder(
                            "topology.kubernetes.io/zone=DoNotSchedule", "kubernetes.io/hostname=ScheduleAnyway");
            assertThat(spread)
                    .allMatch(s -> selects(s.getLabelSelector().getMatchLabels(), labels) && s.getMaxSkew() == 1);
            Lifecycle lifecycle = t.getSpec().getContainers().get(0).getLifecycle();
            long preStop =
                    lifecycle == null ? 0 : lifecycle.getPreStop().getSleep().getSeconds();
            assertThat(t.getSpec().getTerminationGracePeriodSeconds())
                    .as(name + " grace period")
                    .isGreaterThan(preStop + CLOSE_SECONDS.get(name));
        });
        // the gateway keeps serving while its endpoint leaves the Service: SIGTERM comes after the preStop sleep
        Container gateway =
                workloads(docs).get("ingress-gateway").getSpec().getContainers().get(0);
        assertThat(gateway.getLifecycle().getPreStop().getSleep().getSeconds()).isBetween(5L, 15L);
    }

    @Test
    void theStreamHasItsHeadlessService_keepsItsStateDirectoryAndAStandby_andTopicsAreReplicatedThrice()
            throws IOException {
        List<HasMetadata> docs = K8sModel.all();
        StatefulSet stream = K8sModel.of(docs, StatefulSet.class).get(0);
        Service headless = K8sModel.of(docs, Service.class).stream()
                .filter(s -> s.getMetadata().getName().equals(stream.getSpec().getServiceName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "no Service named " + stream.getSpec().getServiceName()));
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(selects(
                        headless.getSpec().getSelector(),
                        stream.getSpec().getTemplate().getMetadata().getLabels()))
                .isTrue();
        // every Service routes to pods it selects, at ports their containers declare
        for (Service s : K8sModel.of(docs, Service.class)) {
            PodTemplateSpec target = workloads(docs).values().stream()
                    .filter(t ->
                            selects(s.getSpec().getSelector(), t.getMetadata().getLabels()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(s.getMetadata().getName() + " selects no workload"));
            for (ServicePort p : s.getSpec().getPorts())
                assertThat(declares(target.getSpec().getContainers().get(0), p.getTargetPort()))
                        .as(s.getMetadata().getName() + " " + p.getName())
                        .isTrue();
        }
        Container c = stream.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getVolumeMounts())
                .anyMatch(m -> m.getName().equals("state") && m.getMountPath().equals("/var/lib/seckill/streams"));
        assertThat(stream.getSpec().getVolumeClaimTemplates())
                .extracting(v -> v.getMetadata().getName())
                .containsExactly("state");
        Map<String, String> config = K8sModel.of(docs, ConfigMap.class).get(0).getData();
        assertThat(config).containsEntry("SECKILL_STREAM_STATE_DIR", "/var/lib/seckill/streams");
        assertThat(config).containsEntry("SECKILL_STREAM_STANDBY_REPLICAS", "1");
        assertThat(stream.getSpec().getReplicas())
                .as("a standby needs another instance")
                .isGreaterThanOrEqualTo(2);
        // production: Strimzi's topics, replicated thrice, a write surviving one broker lost, the ledger forever
        Topics topics = new Topics("seckill.");
        assertThat(K8sModel.of(docs, KafkaTopic.class))
                .extracting(t -> t.getSpec().getTopicName())
                .containsExactlyInAnyOrderElementsOf(topics.all());
        for (KafkaTopic t : K8sModel.of(docs, KafkaTopic.class)) {
            assertThat(t.getSpec().getReplicas()).as(t.getSpec().getTopicName()).isEqualTo(3);
            Map<String, String> topicConfig = new TreeMap<>();
            t.getSpec().getConfig().forEach((k, v) -> topicConfig.put(k, String.valueOf(v)));
            assertThat(topicConfig)
                    .as(t.getSpec().getTopicName())
                    .containsEntry("min.insync.replicas", "2")
                    .containsEntry(
                            "retention.ms", t.getSpec().getTopicName().equals(topics.ledger()) ? "-1" : "2592000000");
        }
        // a plain cluster's: the Job, as the base has it (the local overlay replicates once: one broker)
        Job job = K8sModel.of(
                        K8sModel.parse(Files.readString(K8sModel.BASE.resolve("topics-job.yaml")), "topics-job.yaml"),
                        Job.class)
                .get(0);
        Container topicsJob =
                job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(String.join("\n", topicsJob.getArgs()))
                .contains("--replication-factor $REPLICAS")
                .contains("min.insync.replicas=$MIN_ISR")
                .contains("seckill.ledger")
                .contains("retention.ms=-1")
                .as("a secured cluster's admin properties, when mounted")
                .contains("--command-config /etc/seckill/kafka/client.properties");
        assertThat(topicsJob.getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .contains("REPLICAS=3", "MIN_ISR=2");
    }

    @Test
    void composeRunsTheFourServicesOnTheirImagesBesideKafkaRedisAndMariaDb_withKnownSettingsOnly() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(DEPLOY.resolve("compose.yaml")));
        Map<String, Object> services = at(compose, "services");
        assertThat(services.keySet())
                .containsExactlyInAnyOrder(
                        "kafka",
                        "redis",
                        "mariadb",
                        "ingress-gateway",
                        "stock-stream",
                        "stock-stream-2",
                        "order-writer",
                        "reconciler");
        for (String s : services.keySet()) {
            String image = s.equals("stock-stream-2") ? "stock-stream" : s; // a second instance of the same image
            assertThat((Object) at(services, s, "image"))
                    .as("%s runs the image ./seckill images builds, by a name no public registry answers for", s)
                    .isEqualTo("localhost/seckill/" + image + ":0.1.0");
            assertThat((Object) at(services, s, "pull_policy"))
                    .as("%s is never pulled", s)
                    .isEqualTo("never");
        }
        assertThat((Object) at(services, "kafka", "environment", "KAFKA_PROCESS_ROLES"))
                .isEqualTo("broker,controller");
        for (String s : PORTS.keySet()) {
            assertThat((Object) at(services, s, "read_only"))
                    .as(s + " read-only root")
                    .isEqualTo(true);
            assertThat(at(services, s, "cap_drop").toString())
                    .as(s + " capabilities")
                    .contains("ALL");
        }
        for (String s : PORTS.keySet())
            assertThat(at(services, s, "env_file").toString()).contains("seckill.env");
        // the second stream instance: the same restricted profile, a host name and a state volume of its own
        for (String s : List.of("stock-stream", "stock-stream-2")) {
            assertThat((Object) at(services, s, "read_only"))
                    .as(s + " read-only root")
                    .isEqualTo(true);
            assertThat((Object) at(services, s, "hostname"))
                    .as(s + "'s host name, the stable part of its instance id")
                    .isEqualTo(s);
        }
        assertThat(at(services, "stock-stream", "volumes").toString())
                .isNotEqualTo(at(services, "stock-stream-2", "volumes").toString());
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
