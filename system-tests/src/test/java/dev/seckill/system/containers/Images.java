package dev.seckill.system.containers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** The images the container tests run, built (or brought up to date: podman reuses unchanged layers) once per run. */
final class Images {
    private static boolean built;

    private Images() {}

    /** Runs deploy/images/build.sh (the first run makes the Debian bases, a few minutes); its log under target/. */
    static synchronized void ensureBuilt() throws IOException {
        if (built) return;
        Podman.Result r = Podman.run(Duration.ofMinutes(20), Map.of(), "deploy/images/build.sh");
        Path log = Path.of("target", "containers", "images.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, r.output());
        r.orThrow("deploy/images/build.sh (log: " + log.toAbsolutePath() + ")");
        built = true;
    }

    /** The tag every image of this run has ({@code SECKILL_IMAGE_TAG}, 0.1.0 unless set). */
    static String tag() {
        String tag = System.getenv("SECKILL_IMAGE_TAG");
        return tag == null || tag.isBlank() ? "0.1.0" : tag;
    }
}
