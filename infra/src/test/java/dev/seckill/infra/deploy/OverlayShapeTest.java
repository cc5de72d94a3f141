package dev.seckill.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.ops.acl.PipelineAcls;
import dev.seckill.infra.ops.deploy.OperatorManifests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.api.kafka.model.user.KafkaUserAuthorizationSimple;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The overlays in the platform's shape, as {@code kubectl kustomize} renders them: each pod reads its own Secret and no
 * other's, NetworkPolicies let through only what each service uses, and the production overlay's operator resources
 * are what the code and {@code monitoring/alerts.yml} make ({@link OperatorManifests}).
 */
@Tag("fast")
class OverlayShapeTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** What each workload talks to, by port: Kafka (9092, TLS 9093), Redis 6379, MySQL 3306. */
    static final Map<String, Set<Integer>> EGRESS = Map.of(
            "ingress-gateway", Set.of(53, 9092, 9093, 6379),
            "stock-stream", Set.of(53, 9092, 9093, 6379),
            "order-writer", Set.of(53, 9092, 9093, 3306),
            "reconciler", Set.of(53, 9092, 9093, 6379, 3306));
    /** Each workload's Kafka user (its KafkaUser, and the Secret Strimzi writes its password into). */
    static final Map<String, String> KAFKA_USERS = Map.of(
            "ingress-gateway", "seckill-gateway",
            "stock-stream", "seckill-stock-stream",
            "order-writer", "seckill-order-writer",
            "reconciler", "seckill-reconciler");
    /** Strimzi's cluster CA: a certificate every client trusts, not a secret of one service. */
    static final String CLUSTER_CA = "seckill-cluster-ca-cert";

    static Map<String, PodTemplateSpec> workloads(List<HasMetadata> docs) {
        Map<String, PodTemplateSpec> t = new TreeMap<>();
        K8sModel.of(docs, Deployment.class)
                .forEach(d -> t.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        K8sModel.of(docs, StatefulSet.class)
                .forEach(d -> t.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        return t;
    }

    /** Every Secret a pod template names: envFrom, env's secretKeyRef, secret volumes. */
    static Set<String> secretsRead(PodTemplateSpec t) {
        Set<String> names = new TreeSet<>();
        for (Container c : t.getSpec().getContainers()) {
            for (EnvFromSource e : c.getEnvFrom())
                if (e.getSecretRef() != null) names.add(e.getSecretRef().getName());
            for (EnvVar e : c.getEnv())
                if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                    names.add(e.getValueFrom().getSecretKeyRef().getName());
        }
        for (Volume v : t.getSpec().getVolumes())
            if (v.getSecret() != null) names.add(v.getSecret().getSecretName());
        return names;
    }

    @Test
    void everyPodReadsItsOwnSecretsAndNoOtherServices() throws IOException {
        for (String overlay : K8sModel.OVERLAYS) {
            Map<String, PodTemplateSpec> workloads = workloads(K8sModel.rendered(overlay));
            assertThat(workloads.keySet()).containsExactlyInAnyOrderElementsOf(EGRESS.keySet());
            Set<String> taken = new HashSet<>();
            workloads.forEach((name, t) -> {
                Set<String> own = Set.of(name + "-secrets", KAFKA_USERS.get(name), CLUSTER_CA);
                Set<String> read = secretsRead(t);
                assertThat(read).as(overlay + ": " + name).contains(name + "-secrets");
                assertThat(own)
                        .as(overlay + ": " + name + " reads only its own")
                        .containsAll(read);
                for (String s : read)
                    if (!s.equals(CLUSTER_CA))
                        assertThat(taken.add(s))
                                .as(overlay + ": " + s + " read by one service only")
                                .isTrue();
            });
        }
        Map<String, PodTemplateSpec> production = workloads(K8sModel.all());
        production.forEach((name, t) -> assertThat(secretsRead(t))
                .as("production: " + name + " connects as its own Kafka user")
                .contains(KAFKA_USERS.get(name)));
    }

    /**
     * A consumer's group membership fits its workload: a Deployment's replaced pod has a new name, so a static member
     * named by host would leave its predecessor holding its partitions until its session expired — order-writer runs
     * with dynamic membership; a StatefulSet's pod keeps its name, so stock-stream's instance id is that name.
     */
    @Test
    void eachConsumersMembershipFitsItsWorkload() throws IOException {
        for (String overlay : K8sModel.OVERLAYS) {
            List<HasMetadata> docs = K8sModel.rendered(overlay);
            for (Deployment d : K8sModel.of(docs, Deployment.class))
                for (Container c : d.getSpec().getTemplate().getSpec().getContainers())
                    for (EnvVar e : c.getEnv())
                        if (e.getName().endsWith("_INSTANCE_ID"))
                            assertThat(e.getValue())
                                    .as(overlay + ": " + d.getMetadata().getName() + " is a Deployment")
                                    .isEqualTo("dynamic");
            Deployment writer = K8sModel.of(docs, Deployment.class).stream()
                    .filter(d -> d.getMetadata().getName().equals("order-writer"))
                    .findFirst()
                    .orElseThrow();
            assertThat(writer.getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getEnv())
                    .as(overlay + ": order-writer's membership")
                    .anySatisfy(e -> {
                        assertThat(e.getName()).isEqualTo("SECKILL_WRITER_INSTANCE_ID");
                        assertThat(e.getValue()).isEqualTo("dynamic");
                    });
            StatefulSet stream = K8sModel.of(docs, StatefulSet.class).stream()
                    .filter(d -> d.getMetadata().getName().equals("stock-stream"))
                    .findFirst()
                    .orElseThrow();
            assertThat(stream.getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getEnv())
                    .as(overlay + ": stock-stream's instance id is its pod's name")
                    .anySatisfy(e -> {
                        assertThat(e.getName()).isEqualTo("SECKILL_STREAM_INSTANCE_ID");
                        assertThat(e.getValueFrom().getFieldRef().getFieldPath())
                                .isEqualTo("metadata.name");
                    });
        }
    }

    @Test
    void nothingReachesAPodButWhatAPolicyLetsThrough_andEachServiceReachesOnlyWhatItUses() throws IOException {
        for (String overlay : K8sModel.OVERLAYS) {
            List<HasMetadata> docs = K8sModel.rendered(overlay);
            List<NetworkPolicy> policies = K8sModel.of(docs, NetworkPolicy.class);
            NetworkPolicy deny = policies.stream()
                    .filter(p -> p.getMetadata().getName().equals("seckill-default-deny"))
                    .findFirst()
                    .orElseThrow();
            assertThat(deny.getSpec().getIngress()).as("deny all in").isEmpty();
            assertThat(deny.getSpec().getEgress()).as("deny all out").isEmpty();
            assertThat(deny.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
            workloads(docs).forEach((name, t) -> {
                Map<String, String> labels = t.getMetadata().getLabels();
                assertThat(selects(deny.getSpec().getPodSelector().getMatchLabels(), labels))
                        .as(overlay + ": " + name + " is under the default deny")
                        .isTrue();
                NetworkPolicy own = policies.stream()
                        .filter(p -> p != deny
                                && selects(p.getSpec().getPodSelector().getMatchLabels(), labels))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(overlay + ": no policy lets anything reach " + name));
                Set<Integer> out = new TreeSet<>();
                own.getSpec()
                        .getEgress()
                        .forEach(e -> e.getPorts().stream()
                                .map(NetworkPolicyPort::getPort)
                                .forEach(p -> out.add(p.getIntVal())));
                assertThat(out).as(overlay + ": " + name + "'s egress ports").isEqualTo(EGRESS.get(name));
                Set<Integer> in = new TreeSet<>();
                own.getSpec()
                        .getIngress()
                        .forEach(i -> i.getPorts().stream()
                                .map(NetworkPolicyPort::getPort)
                                .forEach(p -> in.add(p.getIntVal())));
                Set<Integer> declared = new TreeSet<>();
                t.getSpec().getContainers().get(0).getPorts().forEach(p -> declared.add(p.getContainerPort()));
                assertThat(in)
                        .as(overlay + ": " + name + " is reached on its own ports only")
                        .isEqualTo(declared);
            });
        }
    }

    @Test
    void productionsStrimziResourcesAndRulesAreWhatTheCodeAndTheAlertsMake() throws IOException {
        assertThat(Files.readString(ROOT.resolve(OperatorManifests.STRIMZI)))
                .as(OperatorManifests.STRIMZI + " differs from the code's declarations: run ./seckill docs")
                .isEqualTo(OperatorManifests.strimzi());
        assertThat(Files.readString(ROOT.resolve(OperatorManifests.RULES)))
                .as(OperatorManifests.RULES + " differs from " + OperatorManifests.ALERTS + ": run ./seckill docs")
                .isEqualTo(OperatorManifests.prometheusRule(ROOT));

        List<HasMetadata> docs = K8sModel.all();
        long bindings = 0;
        for (KafkaUser u : K8sModel.of(docs, KafkaUser.class)) {
            int acls = ((KafkaUserAuthorizationSimple) u.getSpec().getAuthorization())
                    .getAcls().stream().mapToInt(a -> a.getOperations().size()).sum();
            bindings += acls;
        }
        long expected = PipelineAcls.bindings(
                        PipelineAcls.Names.of(dev.seckill.kit.config.Settings.with(Map.of())),
                        PipelineAcls.Role::defaultPrincipal)
                .stream()
                .filter(b -> !b.entry().principal().endsWith("upstream")
                        && !b.entry().principal().endsWith("payment-provider"))
                .count();
        assertThat(bindings)
                .as("every ACL of the services' roles, each operation once")
                .isEqualTo(expected);

        PrometheusRule rule = K8sModel.of(docs, PrometheusRule.class).get(0);
        List<Rule> rules = rule.getSpec().getGroups().stream()
                .flatMap(g -> g.getRules().stream())
                .toList();
        assertThat(rules.stream().filter(r -> r.getAlert() != null).map(Rule::getAlert))
                .as("every alert of " + OperatorManifests.ALERTS)
                .containsExactlyInAnyOrderElementsOf(alertsOnOneHost());
        assertThat(rules)
                .filteredOn(r -> r.getAlert() != null)
                .allSatisfy(r -> assertThat(r.getAnnotations().get("runbook_url"))
                        .as(r.getAlert())
                        .startsWith("https://")
                        .contains("docs/runbook.md#"));

        PodMonitor monitor = K8sModel.of(docs, PodMonitor.class).get(0);
        workloads(docs).forEach((name, t) -> {
            assertThat(selects(
                            monitor.getSpec().getSelector().getMatchLabels(),
                            t.getMetadata().getLabels()))
                    .as(name + " scraped")
                    .isTrue();
            assertThat(t.getSpec().getContainers().get(0).getPorts())
                    .as(name + " has the port the monitor scrapes")
                    .anyMatch(p -> "metrics".equals(p.getName()));
        });
        assertThat(monitor.getSpec().getPodMetricsEndpoints().get(0).getRelabelings())
                .as("the alerts select on `service`")
                .anyMatch(r -> "service".equals(r.getTargetLabel())
                        && r.getSourceLabels().contains("__meta_kubernetes_pod_label_app"));
    }

    /** The alert names of monitoring/alerts.yml, as Prometheus on one host loads them. */
    static List<String> alertsOnOneHost() throws IOException {
        List<String> names = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve(OperatorManifests.ALERTS))) {
            String t = line.strip();
            if (t.startsWith("- alert: "))
                names.add(t.substring("- alert: ".length()).strip());
        }
        assertThat(names).isNotEmpty();
        return names;
    }

    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector != null && labels != null && labels.entrySet().containsAll(selector.entrySet());
    }
}
