package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Runs the examples of docs/examples as an outsider would: a Java one compiled against kafka-clients (a consumer also
 * Jackson) and no project code and its {@code main} run; a Python one with Debian's {@code /usr/bin/python3}. Returns what it
 * printed.
 */
final class Examples {
    static final Path ROOT = Path.of(System.getenv().getOrDefault("SECKILL_ROOT", ".."));
    static final Path PYTHON = Path.of("/usr/bin/python3");

    /** The examples compiled against kafka-clients alone: a producer needs no other library. */
    static final Set<String> KAFKA_CLIENTS_ONLY = Set.of("PurchaseProducer");

    private Examples() {}

    /**
     * Compiles docs/examples/{@code name}.java with only kafka-clients (and Jackson, unless {@link #KAFKA_CLIENTS_ONLY})
     * on the classpath and runs it.
     */
    static String runJava(String name, String... args) throws Exception {
        Path source = ROOT.resolve("docs/examples/" + name + ".java");
        Path classes = Files.createTempDirectory("example-" + name);
        try {
            Stream<Class<?>> libraries = KAFKA_CLIENTS_ONLY.contains(name)
                    ? Stream.of(KafkaConsumer.class)
                    : Stream.of(KafkaConsumer.class, ObjectMapper.class, JsonParser.class, JsonInclude.class);
            String classpath = libraries
                    .map(c -> {
                        try {
                            return Path.of(c.getProtectionDomain()
                                            .getCodeSource()
                                            .getLocation()
                                            .toURI())
                                    .toString();
                        } catch (URISyntaxException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .reduce((a, b) -> a + File.pathSeparator + b)
                    .orElseThrow();
            ByteArrayOutputStream javacOut = new ByteArrayOutputStream();
            int javac = ToolProvider.getSystemJavaCompiler()
                    .run(
                            null,
                            javacOut,
                            javacOut,
                            "-proc:none",
                            "-d",
                            classes.toString(),
                            "-cp",
                            classpath,
                            source.toString());
            assertThat(javac).as(javacOut.toString(StandardCharsets.UTF_8)).isZero();

            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream previous = System.out;
            try (URLClassLoader loader =
                    new URLClassLoader(new URL[] {classes.toUri().toURL()}, Examples.class.getClassLoader())) {
                System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                loader.loadClass(name).getMethod("main", String[].class).invoke(null, (Object) args);
            } finally {
                System.setOut(previous);
            }
            return captured.toString(StandardCharsets.UTF_8);
        } finally {
            try (Stream<Path> files = Files.walk(classes)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Whether Debian's Python has confluent-kafka (./seckill test installs python3-confluent-kafka). */
    static boolean pythonKafka() throws Exception {
        if (!Files.isExecutable(PYTHON)) return false;
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import confluent_kafka")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    /** Runs docs/examples/{@code script} with Debian's Python; asserts it exits 0; returns its standard output. */
    static String runPython(String script, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                PYTHON.toString(), ROOT.resolve("docs/examples/" + script).toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(script + " finished").isTrue();
        assertThat(p.exitValue()).as(script + ": " + out).isZero();
        return out;
    }
}
