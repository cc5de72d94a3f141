package dev.seckill.infra.ops.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's chromium, headless, in a window of a laptop's 1280×800: a page's DOM after its scripts ran, a screenshot,
 * and what a reader sees of it measured by the browser itself ({@link #measure}). A test that uses it is skipped
 * (assumeTrue) where there is no chromium ({@code apt-get install chromium}; {@code ./seckill test} installs it).
 */
public final class HeadlessChromium {
    public static final int WIDTH = 1280;
    public static final int HEIGHT = 800;
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final String CHECK = "<pre id=\"layout-check\">";
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private HeadlessChromium() {}

    /** The page's DOM once it has loaded and its scripts have run (up to 5 s of the page's own time). */
    public static String dumpDom(Path page) throws IOException, InterruptedException {
        return new String(run(page, HEIGHT, "--virtual-time-budget=5000", "--dump-dom"), StandardCharsets.UTF_8);
    }

    /** What a window of 1280×800 shows of the top of the page, as a PNG. */
    public static void screenshot(Path page, Path png) throws IOException, InterruptedException {
        screenshot(page, png, HEIGHT);
    }

    /** The same 1280 px wide and {@code height} tall: the whole page with its {@link PageLayout#scrollHeight()}. */
    public static void screenshot(Path page, Path png, int height) throws IOException, InterruptedException {
        Files.deleteIfExists(png);
        run(page, height, "--screenshot=" + png.toAbsolutePath());
        assertThat(png).as("chromium's screenshot of " + page).isNotEmptyFile();
    }

    /**
     * The page at 1280×800 as the browser lays it out: a copy of it with layout-check.js added, which measures every
     * chart's labels, lines and bars, the goods sections and what runs past the column after the page has loaded and
     * writes them as JSON into {@code <pre id="layout-check">}, read back here through {@link #dumpDom}.
     */
    public static PageLayout measure(Path page) throws IOException, InterruptedException {
        String html = Files.readString(page, StandardCharsets.UTF_8);
        int end = html.lastIndexOf("</body>");
        assertThat(end).as("a </body> in " + page).isNotNegative();
        Path copy = Files.createTempFile("layout-check", ".html");
        try {
            Files.writeString(
                    copy,
                    html.substring(0, end) + "<script>\n" + script() + "</script>" + html.substring(end),
                    StandardCharsets.UTF_8);
            String dom = dumpDom(copy);
            int at = dom.lastIndexOf(CHECK);
            assertThat(at)
                    .as("layout-check.js wrote its measurement of " + page)
                    .isNotNegative();
            String json = dom.substring(at + CHECK.length(), dom.indexOf("</pre>", at));
            return JSON.readValue(unescape(json), PageLayout.class);
        } finally {
            Files.deleteIfExists(copy);
        }
    }

    private static String script() throws IOException {
        try (InputStream in = HeadlessChromium.class.getResourceAsStream("layout-check.js")) {
            assertThat(in).as("layout-check.js on the test classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A text node as the DOM serialiser writes it: only &amp;, &lt;, &gt; and the no-break space escaped. */
    private static String unescape(String s) {
        return s.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&nbsp;", "\u00a0")
                .replace("&amp;", "&");
    }

    /** Chromium on {@code page} with its own profile (removed after), its standard output; fails after 60 s. */
    private static byte[] run(Path page, int height, String... what) throws IOException, InterruptedException {
        assumeTrue(
                Files.isExecutable(CHROMIUM),
                "no chromium here (apt-get install chromium): the browser check is skipped");
        Path profile = Files.createTempDirectory("chromium-profile");
        try {
            List<String> command = new ArrayList<>(List.of(
                    CHROMIUM.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    "--window-size=" + WIDTH + "," + height,
                    "--user-data-dir=" + profile));
            command.addAll(List.of(what));
            command.add(page.toAbsolutePath().toUri().toString());
            Path out = profile.resolve("stdout");
            Path err = profile.resolve("stderr");
            Process p = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("chromium did not end in 60 s: " + command + "\n" + tail(err));
            }
            assertThat(p.exitValue())
                    .as("chromium's exit (%s)\n%s", command, tail(err))
                    .isZero();
            return Files.readAllBytes(out);
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static String tail(Path err) throws IOException {
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
