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
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The manifests parsed into the Kubernetes object model (fabric8's {@code kubernetes-model}), strictly, as an API server
 * decodes with {@code fieldValidation=Strict}: an unknown field, a duplicate key, a string where a number goes (or a
 * number where a string goes), an unknown {@code apiVersion}/{@code kind} all fail. fabric8's classes keep unknown
 * fields in {@code additionalProperties} ({@code @JsonAnySetter}); this mapper turns that off, so Jackson's own
 * {@code FAIL_ON_UNKNOWN_PROPERTIES} names the field, and {@link #unknownFields} still walks every parsed object for a
 * filled {@code additionalProperties} (a class with a deserializer of its own, which would bypass the mapper).
 */
final class K8sModel {
    static final Path DIR = Path.of("..", "deploy", "k8s").toAbsolutePath().normalize();

    /** The kinds these manifests may use, by {@code apiVersion/kind}. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "v1/ConfigMap", ConfigMap.class,
            "v1/Secret", Secret.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "apps/v1/StatefulSet", StatefulSet.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "batch/v1/Job", Job.class);

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

    /** Every document of every file in {@code deploy/k8s}, in file order. */
    static List<HasMetadata> all() throws IOException {
        List<HasMetadata> docs = new ArrayList<>();
        try (var files = Files.list(DIR)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList())
                docs.addAll(parse(Files.readString(f), f.getFileName().toString()));
        }
        return docs;
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
        if (node == null || !seen.add(node)) return;
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) walk(item, path + "[" + i++ + "]", found, seen);
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "." + k, found, seen));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.")) return;
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
