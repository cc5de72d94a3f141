package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.config.Settings;
import dev.seckill.kit.config.SharedSettings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.stack.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * {@code deploy/kafka-acls.sh} applied as an operator applies it on a secured cluster: every call the script makes to
 * Kafka's {@code kafka-acls.sh}, with its arguments as the script passes them, executed by Kafka's own tool
 * ({@code org.apache.kafka.tools.AclCommand}, on the broker's classpath) with a {@code --command-config} of the super
 * user's SASL_SSL client settings. The script's calls are gathered first and run in one JVM: a JVM per call (Kafka's
 * {@code kafka-acls.sh}) would cost this machine a minute for the same calls.
 */
final class ShippedAclScript {
    static final Path SCRIPT =
            Examples.ROOT.resolve("deploy/kafka-acls.sh").toAbsolutePath().normalize();

    /** Runs each gathered call with Kafka's AclCommand, in order; a failing one exits non-zero (AclCommand's own exit). */
    private static final String RUN_CALLS = """
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.util.ArrayList;
            import java.util.List;

            public class RunCalls {
                public static void main(String[] a) throws Exception {
                    List<String> call = new ArrayList<>();
                    for (String line : Files.readAllLines(Path.of(a[0]))) {
                        if (!line.equals("--end")) {
                            call.add(line);
                            continue;
                        }
                        org.apache.kafka.tools.AclCommand.main(call.toArray(new String[0]));
                        call.clear();
                    }
                }
            }
            """;

    private ShippedAclScript() {}

    /** Applies the script to {@code superUser}'s cluster; fails the test when it or a call exits with an error. */
    static void run(Settings superUser, Path dir) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("calls");
        Path tool = bin.resolve("kafka-acls.sh");
        Files.writeString(
                tool,
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '" + calls + "'\necho '--end' >> '"
                        + calls + "'\n");
        assertThat(tool.toFile().setExecutable(true)).isTrue();
        Properties admin = new Properties();
        KafkaClients.common(superUser).forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) admin.setProperty(k, String.valueOf(v));
        });
        Path config = dir.resolve("admin.properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            admin.store(out, "the super user's SASL_SSL client settings");
        }
        ProcessBuilder script = new ProcessBuilder("sh", SCRIPT.toString());
        script.environment()
                .putAll(Map.of(
                        "KAFKA_BIN", bin.toString(),
                        "BOOTSTRAP", superUser.kafkaBootstrap(),
                        "COMMAND_CONFIG", config.toString(),
                        "SECKILL_TOPIC_PREFIX", superUser.topicPrefix(),
                        "SECKILL_STREAM_APPLICATION_ID", superUser.get(SharedSettings.STREAM_APPLICATION_ID),
                        "SECKILL_GATEWAY_STATUS_GROUP_ID", superUser.get(SharedSettings.GATEWAY_STATUS_GROUP_ID),
                        "SECKILL_WRITER_GROUP_ID", superUser.get(SharedSettings.WRITER_GROUP_ID)));
        exec(script, dir.resolve("script.out"), "deploy/kafka-acls.sh");
        Path runner = dir.resolve("RunCalls.java");
        Files.writeString(runner, RUN_CALLS);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        exec(
                new ProcessBuilder(java, "-cp", KafkaBroker.brokerClasspath(), runner.toString(), calls.toString()),
                dir.resolve("acl-command.out"),
                "Kafka's AclCommand with the script's calls");
    }

    private static void exec(ProcessBuilder pb, Path output, String what) throws IOException, InterruptedException {
        Process p = pb.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) p.destroyForcibly();
        assertThat(ended).as(what + " ended: " + Files.readString(output)).isTrue();
        assertThat(p.exitValue()).as(what + ": " + Files.readString(output)).isZero();
    }
}
