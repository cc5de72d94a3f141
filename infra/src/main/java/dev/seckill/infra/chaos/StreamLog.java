package dev.seckill.infra.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What stock-stream said it rebuilt, read from its own log (each instance logs beside its output): the WARN line of
 * {@code Rebuilds} for a goods whose Redis keys were not at the marker its ledger fold expects, with the cause (lost:
 * Redis behind the fold; ahead; gone: keys the fold says expired). Counted per cause, as the stream's metric
 * {@code seckill_stream_inline_restores{cause}} counts them (the metric is gone with a restarted process; the log stays).
 */
final class StreamLog {
    static final Pattern REBUILT = Pattern.compile(
            "goods (\\d+): Redis keys at marker '[^']*', the ledger fold at '[^']*' \\((lost|ahead|gone)\\): rebuilt from the fold");

    private StreamLog() {}

    /** Cause → rebuilds of {@code goods} logged by every stock-stream instance in {@code logs}. */
    static Map<String, Integer> rebuilds(Path logs, long goods) throws IOException {
        Map<String, Integer> all = new TreeMap<>();
        if (!Files.isDirectory(logs)) return all;
        List<Path> files;
        try (Stream<Path> list = Files.list(logs)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("stock-stream"))
                    .toList();
        }
        for (Path f : files)
            try (Stream<String> lines = Files.lines(f, StandardCharsets.UTF_8)) {
                count(lines, goods).forEach((k, v) -> all.merge(k, v, Integer::sum));
            }
        return all;
    }

    /** Cause → rebuilds of {@code goods} among {@code lines}. */
    static Map<String, Integer> count(Stream<String> lines, long goods) {
        Map<String, Integer> out = new TreeMap<>();
        lines.forEach(l -> {
            Matcher m = REBUILT.matcher(l);
            if (m.find() && Long.parseLong(m.group(1)) == goods) out.merge(m.group(2), 1, Integer::sum);
        });
        return out;
    }

    static int total(Map<String, Integer> rebuilds) {
        return rebuilds.values().stream().mapToInt(Integer::intValue).sum();
    }
}
