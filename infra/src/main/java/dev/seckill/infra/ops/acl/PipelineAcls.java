package dev.seckill.infra.ops.acl;

import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.resource.PatternType.LITERAL;
import static org.apache.kafka.common.resource.PatternType.PREFIXED;
import static org.apache.kafka.common.resource.ResourceType.CLUSTER;
import static org.apache.kafka.common.resource.ResourceType.GROUP;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;
import static org.apache.kafka.common.resource.ResourceType.TRANSACTIONAL_ID;

import dev.seckill.kit.config.GroupIds;
import dev.seckill.kit.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The pipeline's Kafka ACLs, declared once: one principal per role, each allowed what its clients do and nothing more
 * (on a cluster whose authorizer refuses what no ACL allows). {@code deploy/kafka-acls.sh} is made from these rules
 * ({@link AclScript}), {@code ./seckill acls --apply} creates them, and the tests apply them to a secured broker.
 * Resource names follow the settings: the topic prefix, stock-stream's application id, the gateway's and the writer's
 * consumer groups ({@link Names}).
 */
public final class PipelineAcls {
    private PipelineAcls() {}

    /** Who connects, and what for. Its principal is {@code User:seckill-<name>} unless the operator names another. */
    public enum Role {
        GATEWAY("gateway", "the ingress gateway: writes purchases and payments, follows outcomes and the ledger"),
        UPSTREAM("upstream", "a service upstream that sends purchases straight to <prefix>commands, and nothing else"),
        PAYMENT_PROVIDER("payment-provider", "a payment provider that reports payments straight to <prefix>payments"),
        STOCK_STREAM("stock-stream", "the Kafka Streams app that decides every command (exactly once)"),
        ORDER_WRITER("order-writer", "writes orders from the ledger and takes the payments"),
        RECONCILER("reconciler", "folds the ledger, reads the lags, sends restores"),
        OPERATOR("operator", "./seckill's tools: topics, sales, reports, replays, namespaces, reconcile");

        public final String id;
        public final String what;

        Role(String id, String what) {
            this.id = id;
            this.what = what;
        }

        public String defaultPrincipal() {
            return "User:seckill-" + id;
        }
    }

    /** The names the rules grant rights on: values from settings, or a script's shell variables. */
    public record Names(String prefix, String streamApp, String gatewayStatusGroup, String writerGroup) {
        public static Names of(Settings s) {
            return new Names(
                    s.topicPrefix(), GroupIds.stockStream(s), GroupIds.gatewayStatus(s), GroupIds.orderWriter(s));
        }
    }

    /** A role may do {@code operations} on the resource {@code name} (or, PREFIXED, on every name it begins). */
    public record Rule(
            Role role,
            ResourceType type,
            PatternType pattern,
            String name,
            List<AclOperation> operations,
            String why) {}

    /** Every rule, in the order the script lists them. */
    public static List<Rule> rules(Names n) {
        String p = n.prefix();
        String warmup = p + "warmup-";
        List<Rule> r = new ArrayList<>();
        Rules.add(r, Role.GATEWAY, TOPIC, LITERAL, p + "commands", "purchases", WRITE);
        Rules.add(r, Role.GATEWAY, TOPIC, LITERAL, p + "payments", "the payment provider's confirmations", WRITE);
        Rules.add(r, Role.GATEWAY, TOPIC, PREFIXED, p + "outcome.", "outcome view and status indexer", READ);
        Rules.add(r, Role.GATEWAY, TOPIC, LITERAL, p + "ledger", "the outcome view sees sales open and close", READ);
        Rules.add(r, Role.GATEWAY, GROUP, LITERAL, n.gatewayStatusGroup(), "the status indexer's group", READ);
        Rules.describeAll(r, Role.GATEWAY, p);
        Rules.add(r, Role.GATEWAY, TOPIC, PREFIXED, warmup, "warm-up topics", CREATE, DELETE, READ, WRITE);
        Rules.add(r, Role.GATEWAY, GROUP, PREFIXED, warmup, "warm-up indexer group", READ, DELETE);

        Rules.add(r, Role.UPSTREAM, TOPIC, LITERAL, p + "commands", "purchases", WRITE);

        Rules.add(r, Role.PAYMENT_PROVIDER, TOPIC, LITERAL, p + "payments", "payments it vouches for", WRITE);

        Rules.add(r, Role.STOCK_STREAM, TOPIC, LITERAL, p + "commands", "what it decides", READ);
        Rules.add(r, Role.STOCK_STREAM, TOPIC, PREFIXED, p + "outcome.", "the outcomes", WRITE);
        Rules.add(r, Role.STOCK_STREAM, TOPIC, LITERAL, p + "ledger", "stock changes", WRITE);
        Rules.add(r, Role.STOCK_STREAM, TOPIC, LITERAL, p + "dlq", "poison commands", WRITE);
        Rules.describeAll(r, Role.STOCK_STREAM, p);
        Rules.add(r, Role.STOCK_STREAM, GROUP, LITERAL, n.streamApp(), "the application id is its group", READ);
        Rules.add(
                r,
                Role.STOCK_STREAM,
                TOPIC,
                PREFIXED,
                n.streamApp() + "-",
                "Streams' changelogs",
                CREATE,
                READ,
                WRITE,
                DESCRIBE_CONFIGS);
        Rules.add(
                r,
                Role.STOCK_STREAM,
                TRANSACTIONAL_ID,
                PREFIXED,
                n.streamApp() + "-",
                "exactly_once_v2 producers, <app>-<process|instance>-<thread>",
                WRITE);
        Rules.add(
                r,
                Role.STOCK_STREAM,
                CLUSTER,
                LITERAL,
                "kafka-cluster",
                "the brokers' group.min/max.session.timeout.ms",
                DESCRIBE_CONFIGS);
        Rules.add(
                r,
                Role.STOCK_STREAM,
                TOPIC,
                PREFIXED,
                warmup,
                "warm-up topics and changelogs",
                CREATE,
                DELETE,
                READ,
                WRITE,
                DESCRIBE_CONFIGS);
        Rules.add(r, Role.STOCK_STREAM, GROUP, PREFIXED, warmup, "warm-up app's group", READ, DELETE);
        Rules.add(r, Role.STOCK_STREAM, TRANSACTIONAL_ID, PREFIXED, warmup, "warm-up app's producers", WRITE);

        Rules.add(
                r,
                Role.ORDER_WRITER,
                TOPIC,
                LITERAL,
                p + "ledger",
                "orders, releases, opens, payments' decisions",
                READ);
        Rules.add(r, Role.ORDER_WRITER, TOPIC, LITERAL, p + "payments", "payments", READ);
        Rules.add(r, Role.ORDER_WRITER, GROUP, LITERAL, n.writerGroup(), "its group", READ);
        Rules.add(r, Role.ORDER_WRITER, TOPIC, LITERAL, p + "dlq", "records it cannot write", WRITE);
        Rules.add(r, Role.ORDER_WRITER, TOPIC, LITERAL, p + "commands", "releases of unpaid orders, payments", WRITE);
        Rules.describeAll(r, Role.ORDER_WRITER, p);

        Rules.add(r, Role.RECONCILER, TOPIC, LITERAL, p + "ledger", "the ledger fold", READ);
        Rules.add(r, Role.RECONCILER, TOPIC, LITERAL, p + "commands", "restores", WRITE);
        Rules.describeAll(r, Role.RECONCILER, p);
        Rules.add(r, Role.RECONCILER, GROUP, LITERAL, n.streamApp(), "stock-stream's lag", DESCRIBE);
        Rules.add(r, Role.RECONCILER, GROUP, LITERAL, n.writerGroup(), "order-writer's lag", DESCRIBE);

        Rules.add(r, Role.OPERATOR, TOPIC, PREFIXED, p, "create, read, write, delete the pipeline's topics", ALL);
        Rules.add(r, Role.OPERATOR, GROUP, PREFIXED, p, "the drills' and cleans' groups", ALL);
        Rules.add(r, Role.OPERATOR, TRANSACTIONAL_ID, PREFIXED, p, "the drills' in-process stream", ALL);
        Rules.add(
                r,
                Role.OPERATOR,
                CLUSTER,
                LITERAL,
                "kafka-cluster",
                "brokers, leaders, configs",
                DESCRIBE,
                DESCRIBE_CONFIGS);
        return r;
    }

    /** The rules as Kafka's ACL bindings, each operation its own allow entry, for any host. */
    public static List<AclBinding> bindings(Names names, Function<Role, String> principal) {
        List<AclBinding> out = new ArrayList<>();
        for (Rule rule : rules(names)) {
            ResourcePattern resource = new ResourcePattern(rule.type(), rule.name(), rule.pattern());
            for (AclOperation op : rule.operations())
                out.add(new AclBinding(
                        resource,
                        new AccessControlEntry(principal.apply(rule.role()), "*", op, AclPermissionType.ALLOW)));
        }
        return out;
    }

    /** The bindings for the settings' names and the default principals. */
    public static List<AclBinding> bindings(Settings settings) {
        return bindings(Names.of(settings), Role::defaultPrincipal);
    }
}
