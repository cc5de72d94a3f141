package dev.seckill.infra.bench.tokens;

import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ProgressBar;
import dev.seckill.infra.harness.ReportOutput;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code ./seckill bench tokens [--seconds N --warmup N --forks N]}: what a token costs the gateway, by JMH
 * ({@link TokenCosts}), RS256 and ES256 against a JWKS: a buyer's token verified before, a new forged token (a full
 * check, as a buyer's first request), the same forged token again (refused from memory); the ratios in the same run.
 */
public final class TokensBenchmark {
    private TokensBenchmark() {}

    static final List<String> ALGORITHMS = List.of("RS256", "ES256");
    static final List<String> CASES = List.of("verifiedBefore", "forgedNew", "forgedAgain");

    /** One measured case: µs per token and JMH's 99.9% error. */
    record Cost(double micros, double error) {}

    public static int run(Flags f, ReportOutput o) throws RunnerException {
        PrintStream out = o.text();
        int seconds = (int) f.getCount("seconds");
        int warmup = (int) f.getCount("warmup");
        int forks = (int) f.getCount("forks");
        out.printf(
                "bench tokens: the gateway's token check (nimbus-jose-jwt against a JWKS file, the caches of the gateway),"
                        + " JMH average time per token, %d × 1 s measured after %d × 1 s warm-up, %d fork(s), one thread%n",
                seconds, warmup, forks);
        ProgressBar bar = new ProgressBar("tokens", (long) ALGORITHMS.size() * CASES.size());
        Map<String, Cost> costs = new LinkedHashMap<>();
        int done = 0;
        for (String algorithm : ALGORITHMS) {
            for (String c : CASES) {
                var options = new OptionsBuilder()
                        .include(TokenCosts.class.getName() + "\\." + c + "$")
                        .param("algorithm", algorithm)
                        .warmupIterations(warmup)
                        .warmupTime(TimeValue.seconds(1))
                        .measurementIterations(seconds)
                        .measurementTime(TimeValue.seconds(1))
                        .forks(forks)
                        .threads(1)
                        .verbosity(VerboseMode.SILENT)
                        .build();
                for (RunResult r : new Runner(options).run())
                    costs.put(
                            algorithm + " " + c,
                            new Cost(
                                    r.getPrimaryResult().getScore(),
                                    r.getPrimaryResult().getScoreError()));
                bar.update(++done);
            }
        }
        bar.finish(done);
        out.print(table(costs));
        o.put("microsPerToken", costs);
        return 0;
    }

    static String table(Map<String, Cost> costs) {
        StringBuilder b = new StringBuilder("\n== bench tokens ==\n");
        b.append(String.format("%-8s %-16s %14s %12s%n", "alg", "token", "µs per token", "± (99.9%)"));
        for (Map.Entry<String, Cost> e : costs.entrySet()) {
            String[] k = e.getKey().split(" ");
            double error = e.getValue().error();
            b.append(String.format(
                    "%-8s %-16s %14.2f %12s%n",
                    k[0], k[1], e.getValue().micros(), Double.isNaN(error) ? "-" : String.format("%.2f", error)));
        }
        List<String> ratios = new ArrayList<>();
        for (String a : ALGORITHMS) {
            Cost fresh = costs.get(a + " forgedNew");
            Cost again = costs.get(a + " forgedAgain");
            Cost cached = costs.get(a + " verifiedBefore");
            if (fresh == null || again == null || cached == null) continue;
            ratios.add(String.format(
                    "%s: a forged token again ×%.0f cheaper than a new one (%.2f vs %.2f µs); a buyer's token verified"
                            + " before ×%.0f cheaper than a full check",
                    a,
                    fresh.micros() / again.micros(),
                    again.micros(),
                    fresh.micros(),
                    fresh.micros() / cached.micros()));
        }
        ratios.forEach(r -> b.append("ratio    ").append(r).append('\n'));
        return b.toString();
    }
}
