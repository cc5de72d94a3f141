package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The suite's jobs as the launcher declares them (TEST_JOBS in {@code seckill}) hold every module's tests: system-tests
 * split by the {@code containers} tag, each container test carrying it, every module with tests named once; and the
 * lanes keep two jobs of one module apart.
 */
@Tag("fast")
class SuiteJobsTest {
    static final Pattern JOBS = Pattern.compile("(?s)TEST_JOBS=\"(.*?)\"");

    @Test
    void everyModuleWithTestsIsAJobAndSystemTestsSplitsOnTheContainersTag() throws IOException {
        Matcher m = JOBS.matcher(Files.readString(Podman.ROOT.resolve("seckill")));
        assertThat(m.find()).as("TEST_JOBS in the launcher").isTrue();
        List<String> jobs = m.group(1).lines().map(l -> l.split(" ")[0]).toList();
        assertThat(m.group(1).lines()).allMatch(l -> l.matches("\\S+ (alone|heavy|light)( [1-9])?"));
        assertThat(jobs).doesNotHaveDuplicates();
        assertThat(jobs.stream().filter(j -> j.startsWith("system-tests")))
                .as("system-tests split on the containers tag, into two jobs that cover it")
                .containsExactlyInAnyOrder("system-tests@!containers", "system-tests@containers");
        for (String split : jobs.stream().filter(j -> j.contains("@!")).toList()) {
            String module = split.replaceAll("@.*", "@");
            List<String> parts = new ArrayList<>(List.of(split));
            for (String tag : split.replaceAll(".*@!", "").split(",")) parts.add(module + tag);
            assertThat(jobs.stream().filter(j -> j.startsWith(module)))
                    .as("a module split on tags: the classes of each tag, and the rest (none of them), nothing else")
                    .containsExactlyInAnyOrderElementsOf(parts);
        }
        assertThat(jobs.stream().filter(j -> j.contains("@") && !j.contains("@!")))
                .as("every tagged job has its complement")
                .allMatch(j -> jobs.stream()
                        .anyMatch(rest -> rest.startsWith(j.replaceAll("@.*", "@!"))
                                && List.of(rest.replaceAll(".*@!", "").split(","))
                                        .contains(j.replaceAll(".*@", ""))));
        List<String> modules;
        try (Stream<Path> dirs = Files.list(Podman.ROOT)) {
            modules = dirs.filter(d -> Files.isDirectory(d.resolve("src/test")))
                    .map(d -> d.getFileName().toString())
                    .toList();
        }
        assertThat(modules).contains("system-tests", "infra");
        assertThat(jobs.stream().map(j -> j.replaceAll("@.*", "")).distinct().toList())
                .as("a job for every module with tests, and no other")
                .containsExactlyInAnyOrderElementsOf(modules);
    }

    /**
     * Two jobs of one module run at once (system-tests' two), and Surefire deletes its temporary directory when it
     * ends: shared, that deletion broke the other job's test JVMs as they started ("The forked VM terminated without
     * properly saying goodbye", a CI run's system-tests job failing in 5 s). Each job names a directory of its own.
     */
    @Test
    void everyJobStartsItsTestJvmsFromATemporaryDirectoryOfItsOwn() throws IOException {
        String script = Files.readString(Podman.ROOT.resolve("seckill"));
        Matcher lane = Pattern.compile("(?s)\ntest_lane\\(\\) \\{(.*?)\n\\}\n").matcher(script);
        assertThat(lane.find()).as("test_lane in the launcher").isTrue();
        String body = lane.group(1);
        assertThat(body).contains("groups+=(-DtempDir=\"surefire-${job//[@!]/-}\")");
        assertThat(body.indexOf("-DtempDir=")).isLessThan(body.indexOf("mvn -B"));
        assertThat(body).contains("\"${groups[@]}\"");
    }

    @Test
    void everyContainerTestCarriesTheTagItsJobSelects() throws Exception {
        Path here = Podman.ROOT.resolve("system-tests/src/test/java");
        List<Class<?>> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(here.resolve("dev/seckill/system/containers"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = here.relativize(f).toString().replace(".java", "").replace('/', '.');
                Class<?> c = Class.forName(name);
                if (c != SuiteJobsTest.class
                        && Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.isAnnotationPresent(Test.class)))
                    tests.add(c);
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(3);
        for (Class<?> t : tests)
            assertThat(t.getAnnotationsByType(Tag.class))
                    .as(t.getName() + "'s tags")
                    .extracting(Tag::value)
                    .contains(Podman.CONTAINERS);
        assertThat(Podman.CONTAINERS).isEqualTo("containers");
    }
}
