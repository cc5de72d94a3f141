package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.seckill.stack.ServerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The local overlay ({@code kubectl kustomize deploy/k8s/overlays/local}) run by {@code podman kube play}, the kinds
 * it runs (Deployment, ConfigMap, Secret), on a network with Kafka, Redis and MariaDB from deploy/compose.yaml, whose
 * names the overlay uses. The StatefulSet's pod template runs the same way, as a Deployment of one (podman 4.3 runs no
 * StatefulSet). Every probe the manifests declare, and every /metrics, is asked from outside the pod, on its own
 * address, as a kubelet and Prometheus do; the restricted securityContext is checked as podman applied it, and each
 * pod's environment holds its own service's secrets and no other's.
 */
@Tag(Podman.CONTAINERS)
class KubePlayDeploymentTest {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final Map<String, Integer> METRICS_PORTS =
            Map.of("ingress-gateway", 9401, "stock-stream", 9402, "order-writer", 9403, "reconciler", 9404);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static ComposeProject stack;
    static TestSecrets secretFiles;
    static Path played;
    static List<String> secrets = new ArrayList<>();
    static List<JsonNode> workloads = new ArrayList<>();

    static final String LOCAL_OVERLAY = "deploy/k8s/overlays/local";
    /** Each service's Secret: variable → the test's secret file (deploy/k8s/base/config.yaml says how they are made). */
    static final Map<String, Map<String, String>> SECRETS = Map.of(
            "ingress-gateway-secrets",
            Map.of(
                    "SECKILL_GATEWAY_AUTH_SECRET", "gateway-auth-secret",
                    "SECKILL_GATEWAY_PAYMENT_SECRET", "gateway-payment-secret"),
            "order-writer-secrets",
            Map.of("SECKILL_DB_PASSWORD", "db-password"),
            "reconciler-secrets",
            Map.of("SECKILL_DB_PASSWORD", "db-password"),
            "stock-stream-secrets",
            Map.of("SECKILL_STREAM_HOP_SECRET", "stream-hop-secret"));

    @BeforeAll
    static void play() throws Exception {
        String why = Podman.unusable();
        if (why != null) System.out.println("KubePlayDeploymentTest skipped: " + why);
        assumeTrue(why == null, why);
        Images.ensureBuilt();
        String cannot = Podman.cannotRun("seckill/ingress-gateway:" + Images.tag());
        if (cannot != null) System.out.println("KubePlayDeploymentTest" + " skipped: " + cannot);
        assumeTrue(cannot == null, cannot);
        String noKubectl = kubectlMissing();
        if (noKubectl != null) System.out.println("KubePlayDeploymentTest skipped: " + noKubectl);
        assumeTrue(noKubectl == null, noKubectl);
        secretFiles = new TestSecrets();
        stack = new ComposeProject(
                "seckill-kp-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of(
                        "SECKILL_GATEWAY_PUBLISH", Integer.toString(ServerProcess.freePort()),
                        "SECKILL_KAFKA_PUBLISH", Integer.toString(ServerProcess.freePort()),
                        "SECKILL_SECRETS_DIR", secretFiles.dir().toString()));
        stack.up("kafka", "redis", "mariadb");
        played = Path.of("target", "containers", "kube-play.yaml").toAbsolutePath();
        Files.createDirectories(played.getParent());
        // the local overlay as kubectl renders it: what an operator applies to a one-machine cluster
        String rendered = Podman.run(Duration.ofMinutes(1), Map.of(), "kubectl", "kustomize", LOCAL_OVERLAY)
                .orThrow("kubectl kustomize " + LOCAL_OVERLAY)
                .output();
        StringBuilder out = new StringBuilder();
        for (JsonNode doc :
                YAML.readerFor(JsonNode.class).readValues(new YAMLFactory().createParser(rendered)).readAll().stream()
                        .map(JsonNode.class::cast)
                        .toList()) {
            JsonNode runnable = forPodman(doc);
            if (runnable == null) continue;
            if (runnable.path("kind").asText().equals("Deployment")) workloads.add(runnable);
            out.append("---\n").append(YAML.writeValueAsString(runnable));
        }
        Files.writeString(played, out.toString());
        // each service's own Secret, made per cluster as config.yaml says (kubectl create secret generic ...)
        for (var secret : SECRETS.entrySet()) {
            Map<String, String> values = new LinkedHashMap<>();
            secret.getValue().forEach((env, file) -> values.put(env, secretFiles.get(file)));
            createSecret(secret.getKey(), values);
        }
        Podman.run(
                        Duration.ofMinutes(5),
                        Map.of(),
                        "podman",
                        "kube",
                        "play",
                        "--network",
                        stack.network(),
                        played.toString())
                .orThrow("podman kube play " + played);
    }

    @AfterAll
    static void down() throws IOException {
        try {
            if (played != null) {
                for (JsonNode w : workloads) {
                    String c = container(w);
                    Files.writeString(
                            played.resolveSibling(c + ".log"),
                            Podman.podman("logs", c).output());
                }
                Podman.run(Duration.ofMinutes(3), Map.of(), "podman", "kube", "down", played.toString());
            }
            for (String secret : secrets) Podman.podman("secret", "rm", secret);
        } finally {
            try {
                if (stack != null) stack.close();
            } finally {
                if (secretFiles != null) secretFiles.close();
            }
        }
    }

    @Test
    void givenOneSecretPerService_thenAPodHoldsItsOwnSecretsAndNoOtherServices() throws Exception {
        Map<String, String> environments = new TreeMap<>();
        for (JsonNode w : workloads) {
            String name = w.path("metadata").path("name").asText();
            String pid = Podman.podman("inspect", "--format", "{{.State.Pid}}", container(w))
                    .orThrow("podman inspect " + container(w))
                    .trimmed();
            // the process's own environment, as the kernel holds it: what the service can read
            environments.put(
                    name,
                    new String(Files.readAllBytes(Path.of("/proc", pid, "environ")), StandardCharsets.UTF_8)
                            .replace('\0', '\n'));
        }
        assertThat(environments.keySet())
                .containsExactlyInAnyOrder("ingress-gateway", "stock-stream", "order-writer", "reconciler");
        Set<String> everySecret = new TreeSet<>();
        SECRETS.values().forEach(m -> everySecret.addAll(m.keySet()));
        environments.forEach((name, env) -> {
            Set<String> own = SECRETS.getOrDefault(name + "-secrets", Map.of()).keySet();
            for (String secret : everySecret) {
                boolean holds = env.lines().anyMatch(l -> l.startsWith(secret + "="));
                assertThat(holds)
                        .as(name + (own.contains(secret) ? " reads " : " cannot read ") + secret)
                        .isEqualTo(own.contains(secret));
            }
        });
    }

    @Test
    void givenTheManifests_whenPlayed_thenEveryProbeAndMetricsAnswerFromOutsideThePodUnderTheRestrictedProfile()
            throws Exception {
        assertThat(workloads)
                .extracting(w -> w.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("ingress-gateway", "stock-stream", "order-writer", "reconciler");
        for (JsonNode w : workloads) {
            String name = w.path("metadata").path("name").asText();
            String container = container(w);
            String ip = Podman.address(container);
            assertThat(ip).as(name + "'s pod address").matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
            Map<String, Integer> probes = probes(w);
            probes.put("/metrics", METRICS_PORTS.get(name));
            for (var probe : probes.entrySet()) {
                URI uri = URI.create("http://" + ip + ":" + probe.getValue() + probe.getKey());
                await(name + " " + uri)
                        .atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(500))
                        .ignoreExceptions()
                        .until(() -> HTTP.send(
                                                HttpRequest.newBuilder(uri)
                                                        .timeout(Duration.ofSeconds(5))
                                                        .build(),
                                                HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200);
            }
            String security = Podman.podman(
                            "inspect",
                            "--format",
                            "{{.Config.User}}|{{.HostConfig.ReadonlyRootfs}}|{{.HostConfig.CapDrop}}|{{.HostConfig.CapAdd}}",
                            container)
                    .orThrow("podman inspect " + container)
                    .trimmed();
            String[] seen = security.split("\\|");
            assertThat(seen[0]).as(name + ": the uid (and gid) it runs as").isIn("10001", "10001:10001");
            assertThat(seen[1]).as(name + ": read-only root").isEqualTo("true");
            // every capability dropped: CAP_CHOWN and CAP_NET_BIND_SERVICE are in podman's default set
            assertThat(seen[2]).as(name + ": dropped capabilities").contains("CAP_CHOWN", "CAP_NET_BIND_SERVICE");
            assertThat(seen[3]).as(name + ": added capabilities").isIn("[]", "");
            // and as the kernel holds its process: no capability at all, no privilege to gain, a seccomp filter
            String pid = Podman.podman("inspect", "--format", "{{.State.Pid}}", container)
                    .orThrow("podman inspect " + container)
                    .trimmed();
            Map<String, String> status = new HashMap<>();
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                int colon = line.indexOf(':');
                if (colon > 0)
                    status.put(
                            line.substring(0, colon), line.substring(colon + 1).trim());
            }
            assertThat(status.get("CapEff"))
                    .as(name + ": effective capabilities")
                    .isEqualTo("0000000000000000");
            assertThat(status.get("CapPrm"))
                    .as(name + ": permitted capabilities")
                    .isEqualTo("0000000000000000");
            assertThat(status.get("NoNewPrivs"))
                    .as(name + ": no privilege escalation")
                    .isEqualTo("1");
            assertThat(status.get("Seccomp"))
                    .as(name + ": a seccomp filter (2)")
                    .isEqualTo("2");
        }
    }

    /**
     * The document as podman runs it, or null for a kind it does not (Service, PodDisruptionBudget, Job,
     * NetworkPolicy). The local overlay already names compose's servers and runs one pod of each workload.
     */
    static JsonNode forPodman(JsonNode doc) {
        ObjectNode d = doc.deepCopy();
        switch (d.path("kind").asText()) {
            case "ConfigMap" -> {
                // the suite's short warm-up (ComposeProject.SHORT_WARMUP) and JVM flags in the config every service
                // reads
                if (d.path("metadata").path("name").asText().equals("seckill-config")) {
                    ComposeProject.SHORT_WARMUP.forEach(((ObjectNode) d.path("data"))::put);
                    ((ObjectNode) d.path("data")).put("JDK_JAVA_OPTIONS", ComposeProject.SUITE_JVM_FLAGS);
                }
                return d;
            }
            case "Deployment" -> {
                return d;
            }
            case "StatefulSet" -> {
                d.put("kind", "Deployment");
                ObjectNode spec = (ObjectNode) d.path("spec");
                // each claim template's volume: an emptyDir of the pod's own (podman has no claim templates)
                ObjectNode pod = (ObjectNode) spec.path("template").path("spec");
                var volumes = pod.has("volumes") ? (ArrayNode) pod.get("volumes") : pod.putArray("volumes");
                for (JsonNode claim : spec.path("volumeClaimTemplates"))
                    volumes.addObject()
                            .put("name", claim.path("metadata").path("name").asText())
                            .putObject("emptyDir");
                spec.remove(List.of("serviceName", "volumeClaimTemplates", "podManagementPolicy", "updateStrategy"));
                spec.put("replicas", 1);
                return d;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * A Kubernetes Secret as podman 4.3's kube play reads one for {@code envFrom.secretRef}: a podman secret holding a
     * JSON map of base64 values. (4.3 stores a Secret document it plays in another form and then fails to read it:
     * "secret ... is not valid JSON".)
     */
    static void createSecret(String name, Map<String, String> values) throws IOException {
        Map<String, String> data = new LinkedHashMap<>();
        values.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        Path file = Files.createTempFile(
                "seckill-secret-",
                ".json",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(file, new ObjectMapper().writeValueAsString(data));
            if (Podman.podman("secret", "inspect", name).exit() == 0)
                throw new IllegalStateException("a podman secret named " + name + " exists already: not the test's");
            Podman.podman("secret", "create", name, file.toString()).orThrow("podman secret create " + name);
            secrets.add(name);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Each probe's path and port in the workload's first container. */
    static Map<String, Integer> probes(JsonNode w) {
        JsonNode c =
                w.path("spec").path("template").path("spec").path("containers").get(0);
        Map<String, Integer> probes = new LinkedHashMap<>();
        for (String kind : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            JsonNode get = c.path(kind).path("httpGet");
            if (!get.isMissingNode()) probes.put(get.path("path").asText(), port(c, get.path("port")));
        }
        assertThat(probes)
                .as(w.path("metadata").path("name").asText() + "'s probes")
                .isNotEmpty();
        return probes;
    }

    private static int port(JsonNode container, JsonNode port) {
        if (port.isInt()) return port.asInt();
        for (JsonNode p : container.path("ports"))
            if (p.path("name").asText().equals(port.asText()))
                return p.path("containerPort").asInt();
        throw new IllegalStateException("no container port named " + port.asText());
    }

    /** Null when kubectl (which renders the overlay) runs here, else one line saying why not. */
    static String kubectlMissing() {
        try {
            return Podman.run(Duration.ofSeconds(30), Map.of(), "kubectl", "version", "--client")
                                    .exit()
                            == 0
                    ? null
                    : "kubectl does not run here: the local overlay cannot be rendered";
        } catch (IOException | RuntimeException e) {
            return "no kubectl here (" + e.getMessage() + "): the local overlay cannot be rendered";
        }
    }

    /** The container podman made of the workload's first container: {@code <name>-pod-0-<container>}. */
    static String container(JsonNode w) {
        return w.path("metadata").path("name").asText() + "-pod-0-"
                + w.path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("name")
                        .asText();
    }
}
