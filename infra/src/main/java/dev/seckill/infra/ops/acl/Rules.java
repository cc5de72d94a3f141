package dev.seckill.infra.ops.acl;

import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.resource.PatternType.PREFIXED;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;

import dev.seckill.infra.ops.acl.PipelineAcls.Role;
import dev.seckill.infra.ops.acl.PipelineAcls.Rule;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/** Shorthands of {@link PipelineAcls#rules}. */
final class Rules {
    private Rules() {}

    static void add(
            List<Rule> rules,
            Role role,
            ResourceType type,
            PatternType pattern,
            String name,
            String why,
            AclOperation... operations) {
        rules.add(new Rule(role, type, pattern, name, List.of(operations), why));
    }

    /** Every service sees the pipeline's topics: its start checks they exist, its lags and offsets are read. */
    static void describeAll(List<Rule> rules, Role role, String prefix) {
        add(rules, role, TOPIC, PREFIXED, prefix, "the start's check that every topic exists; offsets", DESCRIBE);
    }
}
