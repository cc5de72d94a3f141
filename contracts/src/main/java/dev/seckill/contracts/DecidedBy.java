package dev.seckill.contracts;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The {@code seckill-decided-by} header stock-stream puts on every record it decides (outcomes, ledger entries, dead
 * letters): the instance that decided it and the run of the task that did — {@code <instance>/<run start ms>.<n>}. A
 * run starts when a task's decider starts in a process (the task assigned, taken over, or revived after it was fenced);
 * {@code n} tells apart two runs of one process started in the same millisecond. An in-process stream without an id
 * writes {@code dynamic}.
 *
 * <p>What it is read for: a frozen instance's writes after another took its work over are the committed records of a
 * run that started before the freeze, found after the takeover ({@code chaos --scenario pause-stream} counts them; with
 * fencing there are none). A command's own header of this name is replaced: an upstream producer cannot claim a
 * decision.
 */
public record DecidedBy(String instance, long runStartMs, long runSeq) {
    public static final String HEADER = "seckill-decided-by";
    /** What an instance without an id writes. */
    public static final String DYNAMIC = "dynamic";

    /** The instance is whatever its setting says (everything up to the last {@code /}). */
    private static final Pattern VALUE = Pattern.compile("(.+)/([0-9]{1,19})\\.([0-9]{1,19})", Pattern.DOTALL);

    private static final AtomicLong RUNS = new AtomicLong();

    /** A new run of {@code instance} (blank: {@link #DYNAMIC}) starting now, numbered after every run of this process. */
    public static DecidedBy newRun(String instance) {
        return new DecidedBy(
                instance == null || instance.isBlank() ? DYNAMIC : instance,
                System.currentTimeMillis(),
                RUNS.incrementAndGet());
    }

    public String value() {
        return instance + "/" + runStartMs + "." + runSeq;
    }

    /** This run on {@code headers}, in place of any header of the name the record had. */
    public void putOn(Headers headers) {
        headers.remove(HEADER);
        headers.add(HEADER, value().getBytes(StandardCharsets.UTF_8));
    }

    /** The run a record's headers name, or null (none, or not of this form). */
    public static DecidedBy of(Headers headers) {
        Header h = headers.lastHeader(HEADER);
        return h == null || h.value() == null ? null : parse(new String(h.value(), StandardCharsets.UTF_8));
    }

    /** {@code <instance>/<run start ms>.<n>} read back, or null. */
    public static DecidedBy parse(String value) {
        Matcher m = VALUE.matcher(value);
        if (!m.matches()) return null;
        try {
            return new DecidedBy(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
