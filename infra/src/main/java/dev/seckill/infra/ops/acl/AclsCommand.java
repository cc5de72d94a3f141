package dev.seckill.infra.ops.acl;

import dev.seckill.contracts.Topics;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.infra.ops.acl.PipelineAcls.Names;
import dev.seckill.infra.ops.acl.PipelineAcls.Rule;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * {@code ./seckill acls}: the pipeline's ACLs for the configured names ({@link PipelineAcls}), one line per rule;
 * {@code --script}: them as {@code deploy/kafka-acls.sh}; {@code --apply}: the topics created where missing and the
 * ACLs created on the configured cluster, as whoever the Kafka settings name (a super user), until the broker enforces
 * them all.
 */
public final class AclsCommand {
    private AclsCommand() {}

    public static int run(Settings settings, Flags f, PrintStream stdout) throws Exception {
        if (f.has("script")) {
            if (f.has("json"))
                throw new Flags.UsageError("acls --script prints a script, not a document: not with --json");
            stdout.print(AclScript.render());
            return 0;
        }
        ReportOutput result = ReportOutput.ofCommand("acls", f, stdout, System.err);
        PrintStream out = result.text();
        if (f.has("apply")) {
            int n = apply(settings);
            out.println("acls     " + n + " ACLs of " + PipelineAcls.Role.values().length + " principals in force on "
                    + settings.kafkaBootstrap() + " (topics " + settings.topicPrefix() + "*)");
            result.put("applied", n).put("bootstrap", settings.kafkaBootstrap());
            return result.finish(0);
        }
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Rule r : PipelineAcls.rules(Names.of(settings))) {
            List<String> operations =
                    r.operations().stream().map(o -> AclScript.camel(o.name())).toList();
            out.printf(
                    "%-31s %-40s %-16s %-8s %s%n",
                    r.role().defaultPrincipal(), String.join(",", operations), r.type(), r.pattern(), r.name());
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("principal", r.role().defaultPrincipal());
            rule.put("operations", operations);
            rule.put("resourceType", r.type().toString());
            rule.put("pattern", r.pattern().toString());
            rule.put("name", r.name());
            rules.add(rule);
        }
        result.put("rules", rules);
        return result.finish(0);
    }

    /**
     * Creates the pipeline's topics where missing, then its ACLs (the default principals), and waits until the broker
     * answers with every one of them; returns how many ACLs.
     */
    public static int apply(Settings settings) throws Exception {
        KafkaClients.require(settings, "set SECKILL_KAFKA_BOOTSTRAP");
        TopicProvisioner.ensure(
                settings, new Topics(settings.topicPrefix()), settings.get(SharedSettings.TOPIC_PARTITIONS));
        List<AclBinding> wanted = PipelineAcls.bindings(settings);
        try (Admin admin = KafkaClients.admin(settings)) {
            admin.createAcls(wanted).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!enforced(admin, wanted)) {
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException("the broker did not report every ACL within 60 s");
                TimeUnit.MILLISECONDS.sleep(100); // the broker applies what the controller committed a moment later
            }
        }
        return wanted.size();
    }

    private static boolean enforced(Admin admin, List<AclBinding> wanted) throws Exception {
        Set<AclBinding> present =
                new HashSet<>(admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS));
        return present.containsAll(wanted);
    }
}
