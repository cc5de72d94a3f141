package dev.seckill.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every document of every {@code deploy/k8s} file against the Kubernetes object model (fabric8), strictly: a field the
 * model does not have fails, as it would with {@code kubectl apply --validate=strict}. The negative cases prove the
 * check can fail — each is one of our own manifests with one mistake put in.
 */
@Tag("fast")
class ManifestModelTest {
    static final Path SERVICES = K8sModel.BASE.resolve("services.yaml");

    @Test
    void everyOverlayRendersToKnownKindsWithOnlyTheModelsFields() throws IOException {
        for (String overlay : K8sModel.OVERLAYS) {
            List<HasMetadata> docs = K8sModel.rendered(overlay);
            assertThat(docs)
                    .as(overlay)
                    .extracting(d -> d.getKind() + "/" + d.getMetadata().getName())
                    .doesNotHaveDuplicates()
                    .contains(
                            "ConfigMap/seckill-config",
                            "Deployment/ingress-gateway",
                            "Service/ingress-gateway",
                            "StatefulSet/stock-stream",
                            "Service/stock-stream",
                            "Deployment/order-writer",
                            "Deployment/reconciler",
                            "NetworkPolicy/seckill-default-deny");
            for (HasMetadata d : docs)
                assertThat(K8sModel.unknownFields(d))
                        .as(overlay + ": " + d.getKind() + " " + d.getMetadata().getName())
                        .isEmpty();
        }
        assertThat(K8sModel.rendered("local"))
                .extracting(d -> d.getKind() + "/" + d.getMetadata().getName())
                .as("a plain cluster's topics come from the Job")
                .contains("Job/seckill-topics")
                .noneMatch(k -> k.startsWith("Kafka"));
        List<HasMetadata> docs = K8sModel.all();
        assertThat(docs)
                .extracting(d -> d.getKind() + "/" + d.getMetadata().getName())
                .as("production: Strimzi's topics and users, the Prometheus Operator's monitor and rules")
                .contains(
                        "KafkaTopic/seckill.commands",
                        "KafkaTopic/seckill.ledger",
                        "KafkaUser/seckill-gateway",
                        "KafkaUser/seckill-stock-stream",
                        "PodMonitor/seckill",
                        "PrometheusRule/seckill")
                .doesNotContain("Job/seckill-topics");
        // parsed, not skipped: a field deep in a pod template arrived in its typed place
        Deployment gateway = K8sModel.of(docs, Deployment.class).get(0);
        assertThat(gateway.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getReadinessProbe()
                        .getHttpGet()
                        .getPath())
                .isEqualTo("/health");
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("a misspelled probe", "readinessProbe:", "readinesProbe:", "readinesProbe"),
                Arguments.of(
                        "a misspelled pod field",
                        "automountServiceAccountToken:",
                        "automountServiceToken:",
                        "automountServiceToken"),
                Arguments.of(
                        "a field of another kind",
                        "  serviceName: stock-stream",
                        "  serviceName: stock-stream\n  strategy: {type: Recreate}",
                        "strategy"),
                Arguments.of(
                        "a misspelled budget",
                        "  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow # a",
                        "  maxUnavaliable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow # a",
                        "maxUnavaliable"),
                Arguments.of(
                        "a number where a string goes",
                        "prometheus.io/port: \"9401\"",
                        "prometheus.io/port: 9401",
                        "prometheus.io/port"),
                Arguments.of("a string where a number goes", "replicas: 3", "replicas: \"3\"", "replicas"),
                Arguments.of("a kind the API has not", "kind: StatefulSet", "kind: StatefullSet", "StatefullSet"),
                Arguments.of(
                        "a duplicate key",
                        "  serviceName: stock-stream",
                        "  serviceName: stock-stream\n  serviceName: other",
                        "serviceName"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void oneMistakeInOurManifestFailsTheCheck(String what, String from, String to, String named) throws IOException {
        String yaml = Files.readString(SERVICES);
        assertThat(yaml).as("the mistake's anchor is in the file").contains(from);
        assertThat(K8sModel.parse(yaml, "services.yaml")).isNotEmpty();
        String broken =
                yaml.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
        assertThat(broken).isNotEqualTo(yaml);
        assertThatThrownBy(() -> K8sModel.parse(broken, "services.yaml"))
                .as(what)
                .hasMessageContaining(named);
    }

    @Test
    void aMistakeIsNamedByFileKindNameAndPath() throws IOException {
        String broken = Files.readString(SERVICES).replaceFirst("readinessProbe:", "readinesProbe:");
        assertThatThrownBy(() -> K8sModel.parse(broken, "services.yaml"))
                .hasMessageStartingWith("services.yaml, apps/v1/Deployment ingress-gateway: ")
                .hasMessageContaining("Unrecognized field \"readinesProbe\"")
                .hasMessageEndingWith(", at spec.template.spec.containers[0].readinesProbe");
    }

    @Test
    void anExtraFieldKeptByTheModelsCatchAllIsFoundToo() throws IOException {
        Deployment d = K8sModel.of(K8sModel.parse(Files.readString(SERVICES), "services.yaml"), Deployment.class)
                .get(0);
        assertThat(K8sModel.unknownFields(d)).isEmpty();
        d.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getSecurityContext()
                .setAdditionalProperty("runAsRoot", true);
        assertThat(K8sModel.unknownFields(d))
                .singleElement()
                .asString()
                .endsWith("containers[0].securityContext.runAsRoot");
    }
}
