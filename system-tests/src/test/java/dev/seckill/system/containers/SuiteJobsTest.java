package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The suite's jobs as the launcher declares them (TEST_JOBS in {@code seckill}) hold every module's tests: system-tests
 * split by the {@code containers} tag, each container test carrying it, every module with tests named once.
 */
@Tag("fast")
class SuiteJobsTest {
    static final Pattern JOBS = Pattern.compile("(?s)TEST_JOBS=\"(.*?)\"");

    @Test
    void everyModuleWithTestsIsAJobAndSystemTestsSplitsOnTheContainersTag() throws IOException {
        Matcher m = JOBS.matcher(Files.readString(Podman.ROOT.resolve("seckill")));
        assertThat(m.find()).as("TEST_JOBS in the launcher").isTrue();
        List<String> jobs = m.group(1).lines().map(l -> l.split(" ")[0]).toList();
        assertThat(m.group(1).lines()).allMatch(l -> l.matches("\\S+ (heavy|light)"));
        assertThat(jobs).doesNotHaveDuplicates().contains("system-tests@!containers", "system-tests@containers");
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

    @Test
    void everyContainerTestCarriesTheTagItsJobSelects() throws IOException {
        Path here = Podman.ROOT.resolve("system-tests/src/test/java/dev/seckill/system/containers");
        List<Path> tests;
        try (Stream<Path> files = Files.list(here)) {
            tests = files.filter(f -> f.getFileName().toString().endsWith("Test.java"))
                    .filter(f -> !f.getFileName().toString().equals("SuiteJobsTest.java"))
                    .toList();
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(3);
        for (Path t : tests) assertThat(Files.readString(t)).as(t.toString()).contains("@Tag(Podman.CONTAINERS)");
        assertThat(Podman.CONTAINERS).isEqualTo("containers");
    }
}
