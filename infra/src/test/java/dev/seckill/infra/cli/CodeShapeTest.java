package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, held by the build: no main class over 250 lines (as the formatter lays it out),
 * no method of a service over 60 lines, no fully qualified {@code java.util} collection type spelled inline in a
 * service (imports say what a file uses); no issue or session numbers in the code or the docs (their readers have
 * neither: history is CHANGELOG.md's; the database migrations, whose text Flyway checksums, keep theirs).
 */
@Tag("fast")
class CodeShapeTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final List<String> SERVICES = List.of("stock-stream", "order-writer", "ingress-gateway", "reconciler");
    /**
     * A method's first line at any depth (a nested or anonymous class's methods too): modifiers, a type and a name
     * before {@code (}; a statement that reads alike ({@code throw new X(}, {@code record R(}) is not one.
     */
    static final Pattern METHOD =
            Pattern.compile("^ +(?:public |private |protected |static |final |synchronized |default |abstract )*+"
                    + "(?!(?:return|throw|new|else|case|record|class|interface|enum|yield|assert)\\b)"
                    + "(?:<[^>]+> )?[\\w<>\\[\\], ?.]+ \\w+\\(.*");

    static final Pattern TRACKER_NUMBER = Pattern.compile("(?i)\\b(issue|session) \\d+");

    /** A calendar date: what a current-state table does not carry (when a figure was measured is the CHANGELOG's). */
    static final Pattern DATE = Pattern.compile("\\b20\\d\\d-[01]\\d-[0-3]\\d\\b");

    @Test
    void theMeasuredFiguresStateThePresent_theirDatesAreTheChangelogs() throws IOException {
        List<String> found = new ArrayList<>();
        for (String doc : List.of("docs/reliability.md", "docs/performance.md")) {
            List<String> lines = Files.readAllLines(ROOT.resolve(doc));
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = DATE.matcher(lines.get(i));
                if (m.find()) found.add(doc + ":" + (i + 1) + " " + m.group());
            }
        }
        assertThat(found)
                .as("dates in the current-state docs (history goes to CHANGELOG.md)")
                .isEmpty();
        assertThat(DATE.matcher("| kill-stream | 2026-12-03, PASS |").find()).isTrue();
    }

    @Test
    void noIssueOrSessionNumbersInTheCodeOrTheDocs() throws IOException {
        List<Path> files = new ArrayList<>(mainSources());
        files.addAll(testSources());
        files.add(ROOT.resolve("README.md"));
        files.add(ROOT.resolve("seckill"));
        for (String dir : List.of("deploy", "monitoring"))
            try (var walk = Files.walk(ROOT.resolve(dir))) {
                walk.filter(Files::isRegularFile)
                        .filter(f -> f.toString().matches(".*\\.(ya?ml|sh|json|md|conf)$"))
                        .forEach(files::add);
            }
        try (var docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).forEach(files::add);
        }
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = TRACKER_NUMBER.matcher(lines.get(i));
                if (m.find()) found.add(ROOT.relativize(f) + ":" + (i + 1) + " " + m.group());
            }
        }
        assertThat(found)
                .as("issue or session numbers (history goes to CHANGELOG.md)")
                .isEmpty();
    }

    /** The test sources of every module. */
    static List<Path> testSources() throws IOException {
        List<Path> out = new ArrayList<>();
        try (var modules = Files.list(ROOT)) {
            for (Path tests : modules.map(m -> m.resolve("src/test/java"))
                    .filter(Files::isDirectory)
                    .toList())
                try (var walk = Files.walk(tests)) {
                    walk.filter(f -> f.toString().endsWith(".java")).forEach(out::add);
                }
        }
        return out;
    }

    /** The packages of infra by job, see docs/architecture.md. */
    static final Set<String> JOBS = Set.of("cli", "bench", "chaos", "ops", "harness");

    static final Pattern INFRA_REFERENCE = Pattern.compile("\\bdev\\.seckill\\.infra\\.(\\w+)\\.");

    /**
     * The main sources of every module. Build output, git and the local stack's data ({@code .seckill/}: a running
     * broker creates and deletes files there while this walks) are not entered.
     */
    static List<Path> mainSources() throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return !dir.equals(ROOT) && (name.equals("target") || name.startsWith("."))
                        ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                if (file.toString().endsWith(".java") && file.toString().contains("/src/main/java/")) out.add(file);
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    static boolean inService(Path file) {
        String rel = ROOT.relativize(file).toString();
        return SERVICES.stream().anyMatch(s -> rel.startsWith(s + "/"));
    }

    @Test
    void noMainClassIsOver250Lines() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path f : mainSources()) {
            long lines = Files.readAllLines(f).size();
            if (lines > 250) over.add(ROOT.relativize(f) + " (" + lines + ")");
        }
        assertThat(mainSources()).hasSizeGreaterThan(100);
        assertThat(over).as("main classes over 250 lines").isEmpty();
    }

    @Test
    void noServiceMethodIsOver60Lines() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path f : mainSources()) {
            if (!inService(f)) continue;
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (!METHOD.matcher(l).matches() || l.strip().startsWith("return ") || l.contains(" = ")) continue;
                int depth = 0;
                boolean opened = false;
                int j = i;
                for (; j < lines.size(); j++) {
                    String line = lines.get(j);
                    if (!opened && line.contains(";") && !line.contains("{")) break; // an abstract or interface method
                    depth += count(line, '{') - count(line, '}');
                    opened |= line.contains("{");
                    if (opened && depth == 0) break;
                }
                if (opened && j - i + 1 > 60)
                    over.add(ROOT.relativize(f) + ":" + (i + 1) + " " + l.strip() + " (" + (j - i + 1) + ")");
                if (opened) i = j;
            }
        }
        assertThat(over).as("service methods over 60 lines").isEmpty();
    }

    @Test
    void servicesSpellNoJavaUtilCollectionInline() throws IOException {
        Pattern inline = Pattern.compile(
                "(?<!import )\\bjava\\.util\\.(?:List|Map|Set|ArrayList|HashMap|HashSet|TreeMap|TreeSet)\\b");
        List<String> found = new ArrayList<>();
        for (Path f : mainSources()) {
            if (!inService(f)) continue;
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (inline.matcher(lines.get(i)).find()) found.add(ROOT.relativize(f) + ":" + (i + 1));
            }
        }
        assertThat(found).as("inline java.util collection types in services").isEmpty();
    }

    /**
     * infra depends one way: {@code cli} (parses and dispatches) on the command packages {@code bench}, {@code chaos}
     * and {@code ops}, each on {@code harness} only; {@code harness} on none of them. Each import (or fully qualified
     * name) against that direction is listed with its file.
     */
    @Test
    void infraPackagesDependOneWay() throws IOException {
        Path infra = ROOT.resolve("infra/src/main/java/dev/seckill/infra");
        List<String> against = new ArrayList<>();
        int seen = 0;
        for (Path f : mainSources()) {
            if (!f.startsWith(infra)) continue;
            String from = infra.relativize(f).getName(0).toString();
            if (!JOBS.contains(from)) against.add(ROOT.relativize(f) + ": outside " + JOBS);
            for (String line : Files.readAllLines(f)) {
                Matcher m = INFRA_REFERENCE.matcher(line);
                while (m.find()) {
                    seen++;
                    if (!mayUse(from, m.group(1))) against.add(ROOT.relativize(f) + ": " + line.strip());
                }
            }
        }
        assertThat(seen).as("references between infra's packages read").isGreaterThan(100);
        assertThat(against)
                .as("infra references against cli -> bench|chaos|ops -> harness")
                .isEmpty();
    }

    /**
     * The benchmarks by family: each {@code *Benchmark} lives in its family's package under {@code bench/}, and
     * {@code bench/} itself holds only what several families share.
     */
    @Test
    void everyBenchmarkIsInItsFamilysPackage() throws IOException {
        Path bench = ROOT.resolve("infra/src/main/java/dev/seckill/infra/bench");
        List<String> loose = new ArrayList<>();
        int benchmarks = 0;
        for (Path f : mainSources()) {
            if (!f.startsWith(bench)) continue;
            boolean top = f.getParent().equals(bench);
            String name = f.getFileName().toString();
            if (name.endsWith("Benchmark.java")) benchmarks++;
            if (top && name.endsWith("Benchmark.java"))
                loose.add(ROOT.relativize(f).toString());
            if (top && !SHARED_BY_BENCHMARKS.contains(name)) loose.add(ROOT.relativize(f) + ": not shared");
        }
        assertThat(benchmarks).as("benchmarks found").isGreaterThanOrEqualTo(10);
        assertThat(loose).as("bench/ holds families, and what they share").isEmpty();
    }

    /** What more than one benchmark family uses, kept in {@code bench/} itself. */
    static final List<String> SHARED_BY_BENCHMARKS =
            List.of("RawLua.java", "BenchTracing.java", "Targets.java", "TextTable.java");

    static boolean mayUse(String from, String to) {
        return from.equals(to) || to.equals("harness") || from.equals("cli");
    }

    @Test
    void theDirectionRuleRefusesWhatItShould() {
        assertThat(mayUse("harness", "cli")).isFalse();
        assertThat(mayUse("harness", "bench")).isFalse();
        assertThat(mayUse("bench", "chaos")).isFalse();
        assertThat(mayUse("chaos", "ops")).isFalse();
        assertThat(mayUse("ops", "bench")).isFalse();
        assertThat(mayUse("bench", "cli")).isFalse();
        assertThat(mayUse("cli", "bench")).isTrue();
        assertThat(mayUse("chaos", "harness")).isTrue();
    }

    private static int count(String s, char c) {
        int n = 0;
        for (char x : s.toCharArray()) if (x == c) n++;
        return n;
    }
}
