package dev.seckill.infra.drill;

import dev.seckill.contracts.Json;
import dev.seckill.gateway.auth.Jwt;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The {@link LoadGenerator} in a JVM of its own, so that its allocations and collections are not the gateway's: the
 * phases (a warm-up, a closed loop, an open loop) run one after the other in one child process, which mints the
 * buyers' tokens from {@code SECKILL_BENCH_JWT_SECRET} and prints progress and one summary line per phase.
 */
public final class LoadGeneratorProcess {
    private LoadGeneratorProcess() {}

    /** One run of the generator: requests to {@code goodsId}; {@code rate} 0 for a closed loop; {@code settle} requests not counted. */
    public record Phase(String name, long goodsId, int requests, int concurrency, int users, long seed, double rate, int settle) {
        String arg() { return String.join(":", name, Long.toString(goodsId), Integer.toString(requests), Integer.toString(concurrency),
                Integer.toString(users), Long.toString(seed), Double.toString(rate), Integer.toString(settle)); }

        static Phase parse(String s) {
            String[] f = s.split(":");
            return new Phase(f[0], Long.parseLong(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                    Long.parseLong(f[5]), Double.parseDouble(f[6]), Integer.parseInt(f[7]));
        }
    }

    /** What a phase measured (percentiles over the requests after its {@code settle}). */
    public record Summary(String phase, long requests, long accepted, Map<Integer, Long> byStatus, long errors, long elapsedNanos,
                          double p50, double p99, double p999) {
        public double acceptedPerSecond() { return accepted / (elapsedNanos / 1e9); }

        public static Summary of(String phase, dev.seckill.infra.bench.RawHttpLoad.Result r, int settle) {
            return new Summary(phase, r.requests(), r.accepted(), r.byStatus(), r.errors(), r.elapsedNanos(),
                    r.percentileMillis(50, settle), r.percentileMillis(99, settle), r.percentileMillis(99.9, settle));
        }

        public static Summary of(String phase, LoadGenerator.Result r, int settle) {
            return new Summary(phase, r.requests(), r.accepted(), r.byStatus(), r.errors(), r.elapsedNanos(),
                    r.percentileMillis(50, settle), r.percentileMillis(99, settle), r.percentileMillis(99.9, settle));
        }
    }

    /** Runs the phases in a child JVM against the gateway on {@code port}; {@code progress} gets (phase, requests done). */
    public static List<Summary> run(int port, String jwtSecret, List<Phase> phases, BiConsumer<String, Long> progress) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.javaBinary(), "-XX:+UseG1GC", "-Xms512m", "-Xmx1g", "-cp",
                System.getProperty("java.class.path"), LoadGeneratorProcess.class.getName(), Integer.toString(port)));
        phases.forEach(p -> cmd.add(p.arg()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (jwtSecret != null) pb.environment().put("SECKILL_BENCH_JWT_SECRET", jwtSecret);
        Process child = pb.start();
        List<Summary> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.split(" ", 3);
                if (f.length == 3 && f[0].equals("P")) progress.accept(f[1], Long.parseLong(f[2]));
                else if (f.length == 3 && f[0].equals("R")) out.add(Json.read(f[2].getBytes(StandardCharsets.UTF_8), Summary.class));
            }
        }
        int exit = child.waitFor();
        if (exit != 0 || out.size() != phases.size()) {
            throw new IllegalStateException("the load generator process failed (exit " + exit + ", " + out.size() + " of "
                    + phases.size() + " phases reported)");
        }
        return out;
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        String secret = System.getenv("SECKILL_BENCH_JWT_SECRET");
        Jwt jwt = secret == null ? null : new Jwt(secret, Clock.systemUTC());
        Instant exp = Instant.now().plusSeconds(3600);
        for (int i = 1; i < args.length; i++) {
            Phase p = Phase.parse(args[i]);
            long[] last = {0};
            LoadGenerator.Result r = LoadGenerator.run(port, p.goodsId(), p.requests(), p.concurrency(), p.users(), p.seed(),
                    jwt == null ? null : u -> "Bearer " + jwt.mint(u, exp), n -> {
                        if (n - last[0] >= 2_000 || n == p.requests()) {
                            synchronized (last) {
                                last[0] = n;
                                System.out.println("P " + p.name() + " " + n);
                            }
                        }
                    }, p.rate(), false);
            System.out.println("R " + p.name() + " " + new String(Json.write(Summary.of(p.name(), r, p.settle())), StandardCharsets.UTF_8));
            System.out.flush();
        }
        System.exit(0);
    }

    /** Where this JVM's own java binary is. */
    private static final class Path {
        static String javaBinary() { return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(); }
    }
}
