package dev.seckill.infra.ops.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.seckill.contracts.Topics;
import dev.seckill.infra.ops.acl.PipelineAcls;
import dev.seckill.infra.ops.acl.PipelineAcls.Names;
import dev.seckill.infra.ops.acl.PipelineAcls.Role;
import dev.seckill.infra.ops.acl.PipelineAcls.Rule;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;

/**
 * The production overlay's operator resources, made from the project's own declarations so that each has one source:
 * Strimzi's KafkaTopic per topic ({@link Topics}, replicated as the topics Job makes them) and KafkaUser per service
 * with its ACLs ({@link PipelineAcls}, the rules {@code deploy/kafka-acls.sh} applies on a plain cluster), and the
 * Prometheus Operator's PrometheusRule of {@code monitoring/alerts.yml}. {@code ./seckill docs} writes them; a test
 * fails when a file differs from what this makes.
 */
public final class OperatorManifests {
    public static final String STRIMZI = "deploy/k8s/overlays/production/strimzi.yaml";
    public static final String RULES = "deploy/k8s/overlays/production/prometheus-rules.yaml";
    /** The alerts, as Prometheus loads them on one host and as the PrometheusRule carries them. */
    public static final String ALERTS = "monitoring/alerts.yml";
    /** The Strimzi Kafka cluster the resources belong to (its {@code strimzi.io/cluster} label). */
    public static final String CLUSTER = "seckill";
    /** Where the runbook's anchors resolve: the rules' {@code runbook_url} is absolute, as Alertmanager links it. */
    public static final String RUNBOOK_BASE = "https://seckill.dev/";

    /** The roles a workload of the deployment runs as: one KafkaUser each (upstream producers bring their own). */
    static final List<Role> WORKLOADS =
            List.of(Role.GATEWAY, Role.STOCK_STREAM, Role.ORDER_WRITER, Role.RECONCILER, Role.OPERATOR);

    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .build())
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private OperatorManifests() {}

    /** KafkaTopic and KafkaUser documents for the default names (config.yaml's prefix and group ids). */
    public static String strimzi() {
        Settings defaults = Settings.with(java.util.Map.of());
        Names names = Names.of(defaults);
        Topics topics = new Topics(defaults.topicPrefix());
        StringBuilder b = new StringBuilder("""
                # Made by ./seckill docs from the code's declarations (Topics, PipelineAcls): edit those, then run it.
                # Strimzi's topic and user operators keep these: each topic replicated thrice with min.insync.replicas=2,
                # the ledger kept forever, the rest 30 days (as the topics Job makes them on a plain cluster); one SCRAM user
                # per service, allowed what its clients do and nothing else (deploy/kafka-acls.sh is the same rules).
                # Strimzi writes each user's password into a Secret of the user's name, which only that service reads.
                """);
        for (String topic : topics.all()) {
            ObjectNode t = resource("KafkaTopic", topic.replace('_', '-').toLowerCase(Locale.ROOT));
            ObjectNode spec = t.putObject("spec");
            spec.put("topicName", topic);
            spec.put("partitions", 12);
            spec.put("replicas", 3);
            ObjectNode config = spec.putObject("config");
            config.put("min.insync.replicas", 2);
            if (topic.equals(topics.ledger())) {
                config.put("retention.ms", -1);
                config.put("retention.bytes", -1);
            } else config.put("retention.ms", 2_592_000_000L);
            b.append(document(t));
        }
        List<Rule> rules = PipelineAcls.rules(names);
        for (Role role : WORKLOADS) {
            ObjectNode u = resource("KafkaUser", role.defaultPrincipal().substring("User:".length()));
            ObjectNode spec = u.putObject("spec");
            spec.putObject("authentication").put("type", "scram-sha-512");
            ObjectNode authorization = spec.putObject("authorization");
            authorization.put("type", "simple");
            ArrayNode acls = authorization.putArray("acls");
            for (Rule rule : rules) {
                if (rule.role() != role) continue;
                ObjectNode acl = acls.addObject();
                ObjectNode resource = acl.putObject("resource");
                switch (rule.type()) {
                    case TOPIC -> resource.put("type", "topic").put("name", rule.name());
                    case GROUP -> resource.put("type", "group").put("name", rule.name());
                    case TRANSACTIONAL_ID ->
                        resource.put("type", "transactionalId").put("name", rule.name());
                    case CLUSTER -> resource.put("type", "cluster");
                    default -> throw new IllegalStateException("no Strimzi resource type for " + rule.type());
                }
                if (rule.type() != org.apache.kafka.common.resource.ResourceType.CLUSTER)
                    resource.put("patternType", rule.pattern() == PatternType.PREFIXED ? "prefix" : "literal");
                ArrayNode ops = acl.putArray("operations");
                for (AclOperation op : rule.operations()) ops.add(strimziOperation(op));
                acl.put("host", "*");
            }
            b.append(document(u));
        }
        return b.toString();
    }

    /** The PrometheusRule of {@code monitoring/alerts.yml} under {@code root}: its groups, each runbook absolute. */
    public static String prometheusRule(Path root) {
        JsonNode alerts;
        try {
            alerts = YAML.readTree(Files.readString(root.resolve(ALERTS)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ObjectNode rule = NODES.objectNode();
        rule.put("apiVersion", "monitoring.coreos.com/v1");
        rule.put("kind", "PrometheusRule");
        ObjectNode meta = rule.putObject("metadata");
        meta.put("name", "seckill");
        meta.putObject("labels").put("app.kubernetes.io/part-of", "seckill");
        ArrayNode groups = rule.putObject("spec").putArray("groups");
        for (JsonNode g : alerts.path("groups")) {
            ObjectNode group = groups.addObject();
            group.put("name", g.path("name").asText());
            ArrayNode out = group.putArray("rules");
            for (JsonNode r : g.path("rules")) {
                ObjectNode copy = r.deepCopy();
                JsonNode runbook = copy.path("annotations").path("runbook");
                if (runbook.isTextual())
                    ((ObjectNode) copy.get("annotations")).put("runbook_url", RUNBOOK_BASE + runbook.asText());
                out.add(copy);
            }
        }
        return "# Made by ./seckill docs from " + ALERTS + " (the one source of the alerts): edit that, then run it.\n"
                + "# The Prometheus Operator loads it into every Prometheus whose ruleSelector matches its labels.\n"
                + document(rule);
    }

    /** A Strimzi resource of the pipeline's cluster. */
    private static ObjectNode resource(String kind, String name) {
        ObjectNode r = NODES.objectNode();
        r.put("apiVersion", "kafka.strimzi.io/v1beta2");
        r.put("kind", kind);
        ObjectNode meta = r.putObject("metadata");
        meta.put("name", name);
        meta.putObject("labels").put("strimzi.io/cluster", CLUSTER).put("app.kubernetes.io/part-of", "seckill");
        return r;
    }

    private static String document(JsonNode node) {
        try {
            return "---\n" + YAML.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** DESCRIBE_CONFIGS is DescribeConfigs, as Strimzi spells operations. */
    static String strimziOperation(AclOperation op) {
        StringBuilder b = new StringBuilder();
        for (String part : op.name().split("_"))
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        return b.toString();
    }
}
