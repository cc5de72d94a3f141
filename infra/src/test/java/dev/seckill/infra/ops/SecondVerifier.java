package dev.seckill.infra.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The second verifier of a recorded draw, {@code infra/verify-draw/verify-draw.mjs}, written without the project's code
 * (Node.js and npm's {@code @noble/curves}): its packages installed once ({@code npm ci}), then run on a file.
 */
final class SecondVerifier {
    static final Path DIR = Path.of("verify-draw").toAbsolutePath();

    private SecondVerifier() {}

    static synchronized DrawVerifyTest.Verdict run(Path file) throws IOException, InterruptedException {
        if (!Files.isDirectory(DIR.resolve("node_modules"))) {
            DrawVerifyTest.Verdict install = exec(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
            if (install.exit() != 0) throw new IllegalStateException("npm ci in " + DIR + ": " + install.output());
        }
        return exec(List.of("node", "verify-draw.mjs", file.toString()), 120);
    }

    private static DrawVerifyTest.Verdict exec(List<String> command, int seconds)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(DIR.toFile())
                .redirectErrorStream(true)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not end in " + seconds + " s");
        }
        return new DrawVerifyTest.Verdict(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
