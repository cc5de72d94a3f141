package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's code tour names classes; each one it names exists, top-level or nested, in the project's
 * sources (or is one of the few outside types it names on purpose). A class renamed or removed without the tour fails
 * here.
 */
@Tag("fast")
class ArchitectureTourTest {
    /** A type name in backticks, maybe followed by a member: {@code `Decider.run`}, {@code `Orders.recordAll(…)`}. */
    static final Pattern NAMED = Pattern.compile("`([A-Z][a-z][A-Za-z0-9]*)(?:[.#][A-Za-z0-9_]+)*(?:\\([^`]*\\))?`");

    static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|interface|enum) ([A-Z][A-Za-z0-9]*)\\b");
    /** Types of the libraries the tour names as such. */
    static final Set<String> OUTSIDE = Set.of("TopologyTestDriver");

    @Test
    void everyClassTheTourNamesExists() throws IOException {
        Set<String> declared = new TreeSet<>();
        List<Path> sources = new ArrayList<>(CodeShapeTest.mainSources());
        sources.addAll(CodeShapeTest.testSources());
        for (Path f : sources) {
            Matcher m = DECLARED.matcher(Files.readString(f));
            while (m.find()) declared.add(m.group(1));
        }
        Set<String> named = new TreeSet<>();
        Matcher m = NAMED.matcher(Files.readString(CodeShapeTest.ROOT.resolve("docs/architecture.md")));
        while (m.find()) named.add(m.group(1));

        assertThat(named).as("classes the tour names").hasSizeGreaterThan(100);
        assertThat(named.stream()
                        .filter(n -> !declared.contains(n) && !OUTSIDE.contains(n))
                        .toList())
                .as("named in docs/architecture.md but declared nowhere")
                .isEmpty();
    }
}
