package dev.seckill.infra.deploy;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/**
 * The manifests parsed into the Kubernetes object model (fabric8's {@code kubernetes-model}), strictly, as an API server
 * decodes with {@code fieldValidation=Strict}: an unknown field, a duplicate key, a string where a number goes (or a
 * number where a string goes), an unknown {@code apiVersion}/{@code kind} all fail. fabric8's classes keep unknown
 * fields in {@code additionalProperties} ({@code @JsonAnySetter}); this mapper turns that off, so Jackson's own
 * {@code FAIL_ON_UNKNOWN_PROPERTIES} names the field, and {@link #unknownFields} still walks every parsed object for a
 * filled {@code additionalProperties} (a class with a deserializer of its own, which would bypass the mapper).
 */
final class K8sModel {
    /** The kustomize tree: {@code base/} and one folder per overlay under {@code overlays/}. */
    static final Path DIR = Path.of("..", "deploy", "k8s").toAbsolutePath().normalize();

    static final Path BASE = DIR.resolve("base");

    /**
     * Each overlay's rendering, made once per test JVM: the files do not change while the tests run, and a test that
     * breaks a rule parses its own copy ({@link #parse} makes new objects each time).
     */
    private static final Map<String, String> RENDERED = new ConcurrentHashMap<>();

    /** The overlays, each a cluster the pipeline is deployed to. */
    static final List<String> OVERLAYS = List.of("local", "production");

    /** The kinds these manifests may use, by {@code apiVersion/kind}. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/StatefulSet", StatefulSet.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("monitoring.coreos.com/v1/PodMonitor", PodMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class));

    static final ObjectMapper STRICT = strictMapper();

    private K8sModel() {}

    static ObjectMapper strictMapper() {
        YAMLMapper mapper = YAMLMapper.builder()
                .annotationIntrospector(new JacksonAnnotationIntrospector() {
                    @Override
                    public Boolean hasAnySetter(Annotated a) {
                        return Boolean.FALSE; // no catch-all: an unknown field is an error, not an extra entry
                    }
                })
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        for (CoercionInputShape shape :
                List.of(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean))
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        return mapper;
    }

    /** The production overlay as {@code kubectl kustomize} renders it, parsed strictly. */
    static List<HasMetadata> all() throws IOException {
        return rendered("production");
    }

    /** One overlay ({@link #OVERLAYS}) as {@code kubectl kustomize} renders it, parsed strictly. */
    static List<HasMetadata> rendered(String overlay) throws IOException {
        return parse(render(overlay), "overlays/" + overlay);
    }

    /**
     * {@code kubectl kustomize deploy/k8s/overlays/<overlay>}: the YAML an operator applies. kubectl is the tool the
     * overlays are written for (its kustomize is the one `kubectl apply -k` runs); on a machine without it the checks
     * of the rendered manifests are skipped, saying why (Debian's kubernetes-client is 1.20, whose kustomize is too old
     * for the overlays' patches).
     */
    static String render(String overlay) throws IOException {
        String done = RENDERED.get(overlay);
        if (done != null) return done;
        String yaml = kustomize(overlay);
        RENDERED.put(overlay, yaml);
        return yaml;
    }

    private static String kustomize(String overlay) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(
                            "kubectl",
                            "kustomize",
                            DIR.resolve("overlays").resolve(overlay).toString())
                    .redirectErrorStream(false)
                    .start();
        } catch (IOException e) {
            String why = "no kubectl here (" + e.getMessage() + "): the overlays are not rendered and not checked";
            System.out.println(why);
            Assumptions.abort(why);
            throw e;
        }
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        try {
            if (p.waitFor() != 0)
                throw new IllegalStateException("kubectl kustomize overlays/" + overlay + " failed: "
                        + new String(err, java.nio.charset.StandardCharsets.UTF_8).strip());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every document of {@code yaml}, each as its kind's class; anything the strict model refuses throws. */
    static List<HasMetadata> parse(String yaml, String source) throws IOException {
        List<HasMetadata> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = STRICT.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc == null || doc.isNull() || doc.isMissingNode()) continue;
                String key =
                        doc.path("apiVersion").asText() + "/" + doc.path("kind").asText();
                Class<? extends HasMetadata> type = KINDS.get(key);
                if (type == null) throw new IllegalArgumentException(source + ": no such kind here: " + key);
                String at = source + ", " + key + " "
                        + doc.path("metadata").path("name").asText();
                HasMetadata parsed;
                try {
                    parsed = STRICT.treeToValue(doc, type);
                } catch (JsonMappingException e) {
                    throw new IllegalArgumentException(at + ": " + e.getOriginalMessage() + ", at " + path(e), e);
                }
                List<String> unknown = unknownFields(parsed);
                if (!unknown.isEmpty()) throw new IllegalArgumentException(at + ": unknown fields " + unknown);
                out.add(parsed);
            }
        }
        return out;
    }

    /** Where in the document a mapping error is, as {@code spec.template.spec.containers[0].readinesProbe}. */
    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath())
            b.append(r.getFieldName() != null ? (b.isEmpty() ? "" : ".") + r.getFieldName() : "[" + r.getIndex() + "]");
        return b.toString();
    }

    /** The path of every non-empty {@code additionalProperties} map under {@code root}, recursively. */
    static List<String> unknownFields(Object root) {
        List<String> found = new ArrayList<>();
        walk(root, root.getClass().getSimpleName(), found, Collections.newSetFromMap(new IdentityHashMap<>()));
        return found;
    }

    private static void walk(Object node, String path, List<String> found, Set<Object> seen) {
        if (node == null || node instanceof Enum<?> || !seen.add(node)) return;
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) walk(item, path + "[" + i++ + "]", found, seen);
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "." + k, found, seen));
            return;
        }
        String type = node.getClass().getName();
        if (!type.startsWith("io.fabric8.") && !type.startsWith("io.strimzi.")) return;
        for (Class<?> c = node.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                Object value;
                try {
                    f.setAccessible(true);
                    value = f.get(node);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalStateException("cannot read " + path + "." + f.getName(), e);
                }
                if (f.getName().equals("additionalProperties")) {
                    if (value instanceof Map<?, ?> m && !m.isEmpty())
                        m.keySet().forEach(k -> found.add(path + "." + k));
                } else walk(value, path + "." + f.getName(), found, seen);
            }
        }
    }

    /** The documents of one kind. */
    static <T extends HasMetadata> List<T> of(List<HasMetadata> docs, Class<T> kind) {
        return docs.stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
