package dev.seckill.infra.chaos;

import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.buyers.BuyerAnswers;
import dev.seckill.infra.harness.buyers.BuyerLoad;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A fault as the buyers felt it: for each fault, the time to the first final answer to a purchase sent
 * after it, the time to the first final answer decided after it (a purchase held at the fault counts), and the time-to-answer p50/p99 of the purchases sent in the {@value #WINDOW_SECONDS} s after it, next to
 * the same figure for the quiet sale (sent in the {@value #WINDOW_SECONDS} s ending a second before the first fault).
 */
final class BuyersSide {
    static final int WINDOW_SECONDS = 5;
    private static final long WINDOW = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private BuyersSide() {}

    static void print(BuyerLoad load, List<Long> faultsAt, PrintStream out) {
        if (faultsAt.isEmpty()) return;
        long first = faultsAt.stream().mapToLong(Long::longValue).min().orElseThrow();
        // the quiet sale: the 5 s ending a second before the first fault, so that no request of it was in flight then
        long quietEnd = first - TimeUnit.SECONDS.toNanos(1);
        BuyerAnswers.Felt quiet = load.answers().feltBetween(quietEnd - WINDOW, quietEnd);
        out.printf(
                "   buyers' side: quiet (sent in the %d s before the first fault's last second) %s%n",
                WINDOW_SECONDS, figure(quiet));
        hops(quiet, out);
        for (int k = 0; k < faultsAt.size(); k++) {
            long at = faultsAt.get(k);
            BuyerAnswers.Felt after = load.answers().feltBetween(at, at + WINDOW);
            long firstAnswer = load.answers().firstAnswerAfter(at);
            long firstDecided = load.answers().firstDecidedAfter(at);
            out.printf(
                    "   buyers' side: fault %d: first final answer %s after it (the first decided after it: %s); sent in"
                            + " the %d s after it %s%n",
                    k + 1,
                    firstAnswer < 0 ? "never" : String.format("%,d ms", firstAnswer),
                    firstDecided < 0 ? "none" : String.format("%,d ms", firstDecided),
                    WINDOW_SECONDS,
                    figure(after));
            hops(after, out);
        }
    }

    private static void hops(BuyerAnswers.Felt felt, PrintStream out) {
        if (!felt.hops().isEmpty()) out.printf("      of them %s%n", felt.hops());
    }

    private static String figure(BuyerAnswers.Felt felt) {
        long[] micros = felt.micros();
        if (micros.length == 0) return "(none sent)";
        return String.format(
                "%,d answered, p50 %,.0f ms / p99 %,.0f ms",
                micros.length, Latencies.percentileMillis(micros, 50, 0), Latencies.percentileMillis(micros, 99, 0));
    }
}
