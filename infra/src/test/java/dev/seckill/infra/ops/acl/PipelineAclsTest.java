package dev.seckill.infra.ops.acl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.infra.ops.acl.PipelineAcls.Role;
import dev.seckill.kit.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ACLs shipped in {@code deploy/kafka-acls.sh} are the definition the CLI and the tests apply: the file is the
 * rendering of {@link PipelineAcls}, and run (with a stand-in for Kafka's kafka-acls.sh that records its arguments) it
 * asks for exactly the bindings {@link PipelineAcls#bindings(Settings)} creates, for the default names and for others.
 */
@Tag("fast")
class PipelineAclsTest {
    static final Path SHIPPED =
            Path.of("..", "deploy", "kafka-acls.sh").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theShippedScriptIsTheDefinitionRendered() throws IOException {
        assertThat(Files.readString(SHIPPED))
                .as("deploy/kafka-acls.sh is stale: ./seckill acls --script > deploy/kafka-acls.sh")
                .isEqualTo(AclScript.render());
        assertThat(Files.isExecutable(SHIPPED)).isTrue();
    }

    @Test
    void runTheShippedScript_itAsksKafkaForExactlyTheBindingsTheJavaDefinitionMakes() throws Exception {
        assertThat(asked(Map.of())).containsExactlyInAnyOrderElementsOf(PipelineAcls.bindings(Settings.with(Map.of())));
        Settings other = Settings.with(Map.of(
                Settings.TOPIC_PREFIX, "shop.", "writer.group.id", "writers", "stream.application.id", "deciders"));
        assertThat(asked(Map.of(
                        "SECKILL_TOPIC_PREFIX", "shop.",
                        "SECKILL_WRITER_GROUP_ID", "writers",
                        "SECKILL_STREAM_APPLICATION_ID", "deciders")))
                .containsExactlyInAnyOrderElementsOf(PipelineAcls.bindings(other));
    }

    @Test
    void leastPrivilege_whatTheRolesAreNotGiven() {
        List<AclBinding> all = PipelineAcls.bindings(Settings.with(Map.of(Settings.TOPIC_PREFIX, "seckill.")));
        assertThat(of(all, Role.UPSTREAM))
                .as("upstream: write the commands, nothing else")
                .containsExactly(allow(
                        Role.UPSTREAM,
                        ResourceType.TOPIC,
                        "seckill.commands",
                        PatternType.LITERAL,
                        AclOperation.WRITE));
        assertThat(of(all, Role.GATEWAY))
                .as("the gateway writes no decision")
                .noneMatch(b -> b.entry().operation() == AclOperation.WRITE
                        && List.of("seckill.ledger", "seckill.outcome.", "seckill.dlq")
                                .contains(b.pattern().name()));
        assertThat(all)
                .as("no role may change ACLs or the cluster, nor act on every resource")
                .noneMatch(b -> b.pattern().resourceType() == ResourceType.CLUSTER
                        && !Set.of(AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS)
                                .contains(b.entry().operation()))
                .noneMatch(b ->
                        b.pattern().name().equals("*") || b.pattern().name().isEmpty());
        assertThat(all)
                .as("only the operator creates or deletes the pipeline's own topics")
                .filteredOn(b -> Set.of(AclOperation.CREATE, AclOperation.DELETE, AclOperation.ALL)
                        .contains(b.entry().operation()))
                .allMatch(b -> b.entry().principal().equals(Role.OPERATOR.defaultPrincipal())
                        || b.pattern().name().startsWith("seckill.warmup-")
                        || b.pattern().name().startsWith("seckill.stock-stream-"));
    }

    static List<AclBinding> of(List<AclBinding> all, Role role) {
        return all.stream()
                .filter(b -> b.entry().principal().equals(role.defaultPrincipal()))
                .toList();
    }

    static AclBinding allow(Role role, ResourceType type, String name, PatternType pattern, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(role.defaultPrincipal(), "*", op, AclPermissionType.ALLOW));
    }

    /** Runs the shipped script with {@code env} and a kafka-acls.sh that records each call; the bindings asked for. */
    List<AclBinding> asked(Map<String, String> env) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("calls-" + env.hashCode());
        Path fake = bin.resolve("kafka-acls.sh");
        Files.writeString(
                fake,
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> \"$CALLS\"\necho '--end' >> \"$CALLS\"\n");
        fake.toFile().setExecutable(true);
        ProcessBuilder pb = new ProcessBuilder("sh", SHIPPED.toString()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment()
                .putAll(Map.of(
                        "KAFKA_BIN",
                        bin.toString(),
                        "BOOTSTRAP",
                        "b:1",
                        "COMMAND_CONFIG",
                        "admin.properties",
                        "CALLS",
                        calls.toString()));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return parse(Files.readAllLines(calls));
    }

    /** kafka-acls.sh's arguments, as the script passes them, back into bindings (one per --operation). */
    static List<AclBinding> parse(List<String> args) {
        List<AclBinding> out = new ArrayList<>();
        String principal = null;
        ResourceType type = null;
        String name = null;
        PatternType pattern = PatternType.LITERAL;
        Set<AclOperation> ops = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--bootstrap-server", "--command-config" ->
                    assertThat(args.get(++i)).isNotBlank();
                case "--add" -> {}
                case "--allow-principal" -> principal = args.get(++i);
                case "--operation" ->
                    ops.add(AclOperation.valueOf(
                            args.get(++i).replaceAll("(?<=[a-z])(?=[A-Z])", "_").toUpperCase(Locale.ROOT)));
                case "--topic" -> {
                    type = ResourceType.TOPIC;
                    name = args.get(++i);
                }
                case "--group" -> {
                    type = ResourceType.GROUP;
                    name = args.get(++i);
                }
                case "--transactional-id" -> {
                    type = ResourceType.TRANSACTIONAL_ID;
                    name = args.get(++i);
                }
                case "--cluster" -> {
                    type = ResourceType.CLUSTER;
                    name = "kafka-cluster";
                }
                case "--resource-pattern-type" ->
                    pattern = PatternType.valueOf(args.get(++i).toUpperCase(Locale.ROOT));
                case "--end" -> {
                    for (AclOperation op : ops)
                        out.add(new AclBinding(
                                new ResourcePattern(type, name, pattern),
                                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)));
                    ops.clear();
                    pattern = PatternType.LITERAL;
                }
                default -> throw new AssertionError("kafka-acls.sh has no argument " + args.get(i));
            }
        }
        return out;
    }
}
