package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's code tour names classes and their members; each class it names exists, top-level or nested,
 * in the project's sources (or is one of the few outside types it names on purpose), and each member it names on a
 * class ({@code `Decider.run`}, {@code `Orders.recordAll(…)`}) is a word of the file that declares the class. A class or
 * member renamed or removed without the tour fails here.
 */
@Tag("fast")
class ArchitectureTourTest {
    /** A type name in backticks, maybe followed by a member: {@code `Decider.run`}, {@code `Orders.recordAll(…)`}. */
    static final Pattern NAMED =
            Pattern.compile("`([A-Z][a-z][A-Za-z0-9]*)(?:[.#]([A-Za-z0-9_]+))?(?:[.#][A-Za-z0-9_]+)*(?:\\([^`]*\\))?`");

    static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|interface|enum) ([A-Z][A-Za-z0-9]*)\\b");
    /** Types of the libraries the tour names as such. */
    static final Set<String> OUTSIDE = Set.of("TopologyTestDriver");

    @Test
    void everyClassTheTourNamesExists_andEveryMemberItNamesOnOne() throws IOException {
        Map<String, List<String>> declaredIn = new TreeMap<>();
        List<Path> sources = new ArrayList<>(CodeShapeTest.mainSources());
        sources.addAll(CodeShapeTest.testSources());
        for (Path f : sources) {
            String text = Files.readString(f);
            Matcher m = DECLARED.matcher(text);
            while (m.find())
                declaredIn.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
        }
        Set<String> named = new TreeSet<>();
        Set<String> members = new TreeSet<>();
        Matcher m = NAMED.matcher(Files.readString(CodeShapeTest.ROOT.resolve("docs/architecture.md")));
        while (m.find()) {
            named.add(m.group(1));
            if (m.group(2) != null) members.add(m.group(1) + "." + m.group(2));
        }

        assertThat(named).as("classes the tour names").hasSizeGreaterThan(100);
        assertThat(named.stream()
                        .filter(n -> !declaredIn.containsKey(n) && !OUTSIDE.contains(n))
                        .toList())
                .as("named in docs/architecture.md but declared nowhere")
                .isEmpty();
        assertThat(members).as("members the tour names").hasSizeGreaterThan(10);
        assertThat(members.stream()
                        .filter(tm -> {
                            String type = tm.substring(0, tm.indexOf('.'));
                            Pattern word =
                                    Pattern.compile("\\b" + Pattern.quote(tm.substring(type.length() + 1)) + "\\b");
                            return declaredIn.containsKey(type)
                                    && declaredIn.get(type).stream()
                                            .noneMatch(
                                                    text -> word.matcher(text).find());
                        })
                        .toList())
                .as("members named in docs/architecture.md that the files declaring their class do not hold")
                .isEmpty();
    }
}
