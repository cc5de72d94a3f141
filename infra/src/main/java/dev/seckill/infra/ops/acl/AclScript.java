package dev.seckill.infra.ops.acl;

import dev.seckill.infra.ops.acl.PipelineAcls.Names;
import dev.seckill.infra.ops.acl.PipelineAcls.Role;
import dev.seckill.infra.ops.acl.PipelineAcls.Rule;
import java.util.Locale;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;

/**
 * {@link PipelineAcls}' rules as a shell script of Kafka's own {@code kafka-acls.sh} calls: {@code deploy/kafka-acls.sh}
 * is exactly this text ({@code ./seckill acls --script}), which a test holds it to and runs.
 */
public final class AclScript {
    /** The script's names: shell variables, defaulting as the services' settings do. */
    static final Names NAMES = new Names("${PREFIX}", "${STREAM_APP_ID}", "${GATEWAY_STATUS_GROUP}", "${WRITER_GROUP}");

    private AclScript() {}

    public static String render() {
        StringBuilder b = new StringBuilder(HEADER);
        for (Role role : Role.values())
            b.append(role.name())
                    .append("=\"${")
                    .append(role.name())
                    .append("_PRINCIPAL:-")
                    .append(role.defaultPrincipal())
                    .append("}\"\n");
        b.append(FUNCTION);
        Role last = null;
        for (Rule rule : PipelineAcls.rules(NAMES)) {
            if (rule.role() != last)
                b.append("\n# ")
                        .append(rule.role().id)
                        .append(": ")
                        .append(rule.role().what)
                        .append('\n');
            last = rule.role();
            b.append("acl --allow-principal \"$").append(rule.role().name()).append('"');
            for (AclOperation op : rule.operations()) b.append(" --operation ").append(camel(op.name()));
            b.append(
                    switch (rule.type()) {
                        case TOPIC -> " --topic \"" + rule.name() + '"';
                        case GROUP -> " --group \"" + rule.name() + '"';
                        case TRANSACTIONAL_ID -> " --transactional-id \"" + rule.name() + '"';
                        case CLUSTER -> " --cluster";
                        default -> throw new IllegalStateException("no kafka-acls.sh flag for " + rule.type());
                    });
            if (rule.pattern() == PatternType.PREFIXED) b.append(" --resource-pattern-type prefixed");
            b.append("  # ").append(rule.why()).append('\n');
        }
        return b.toString();
    }

    /** DESCRIBE_CONFIGS is DescribeConfigs, as kafka-acls.sh spells operations. */
    static String camel(String constant) {
        StringBuilder b = new StringBuilder();
        for (String part : constant.split("_"))
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        return b.toString();
    }

    private static final String HEADER = """
            #!/bin/sh
            # The pipeline's Kafka ACLs: one principal per role, each allowed only what its clients do, on a cluster whose
            # authorizer refuses what no ACL allows (allow.everyone.if.no.acl.found=false). docs/operations.md, "Kafka
            # security". Made by `./seckill acls --script` from infra's PipelineAcls, which `./seckill acls --apply` and the
            # tests apply too; a test holds this file to it: change PipelineAcls, then regenerate this file.
            #
            # Run as a principal that may change the cluster's ACLs (a super user), with Kafka's kafka-acls.sh:
            #   BOOTSTRAP=broker:9093 COMMAND_CONFIG=admin.properties KAFKA_BIN=/opt/kafka/bin deploy/kafka-acls.sh
            # The names follow the services' settings (SECKILL_TOPIC_PREFIX, SECKILL_STREAM_APPLICATION_ID,
            # SECKILL_GATEWAY_STATUS_GROUP_ID, SECKILL_WRITER_GROUP_ID); each role's principal may be renamed, e.g.
            # GATEWAY_PRINCIPAL=User:gw-prod. Adding an ACL that exists changes nothing: the script can be run again.
            set -eu
            : "${BOOTSTRAP:?the brokers, host:port,...}"
            : "${COMMAND_CONFIG:?an admin client properties file: security.protocol, sasl.*, ssl.*}"
            KAFKA_ACLS="${KAFKA_BIN:-/opt/kafka/bin}/kafka-acls.sh"
            PREFIX="${SECKILL_TOPIC_PREFIX:-seckill.}"
            STREAM_APP_ID="${SECKILL_STREAM_APPLICATION_ID:-${PREFIX}stock-stream}"
            GATEWAY_STATUS_GROUP="${SECKILL_GATEWAY_STATUS_GROUP_ID:-${PREFIX}gateway-status}"
            WRITER_GROUP="${SECKILL_WRITER_GROUP_ID:-${PREFIX}order-writer}"
            """;

    private static final String FUNCTION = """

            acl() {
              "$KAFKA_ACLS" --bootstrap-server "$BOOTSTRAP" --command-config "$COMMAND_CONFIG" --add "$@"
            }
            """;
}
