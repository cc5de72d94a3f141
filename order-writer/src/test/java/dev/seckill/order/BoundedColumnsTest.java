package dev.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A property of the writer: whatever the values the stream passes on from a purchase — every field of its DEDUCTED
 * entry and every header at their extremes (length, encoding, unicode, empty, absent, repeated) — each purchase gets its
 * order, and nothing is dead-lettered. Cases drawn from a seeded generator; the seed is in the failure message.
 */
class BoundedColumnsTest {
    private static final long SEED = 20261203L;
    private static final int CASES = 150;

    /** Trace header values an upstream producer may send: well-formed, too long, unicode, empty, not UTF-8, a traceparent. */
    private static final List<byte[]> TRACES = List.of(
            "t-1".getBytes(StandardCharsets.UTF_8),
            "x".repeat(64).getBytes(StandardCharsets.UTF_8),
            "x".repeat(65).getBytes(StandardCharsets.UTF_8),
            "y".repeat(10_000).getBytes(StandardCharsets.UTF_8),
            "trace-🎉-ünïcode".getBytes(StandardCharsets.UTF_8),
            new byte[0],
            new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0},
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.UTF_8),
            "has space".getBytes(StandardCharsets.UTF_8),
            "'; DROP TABLE purchase_order; --".getBytes(StandardCharsets.UTF_8));

    private static final List<Instant> INSTANTS = List.of(
            Instant.now(),
            Instant.EPOCH,
            Instant.parse("1000-01-01T00:00:00Z"),
            Instant.parse("0001-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999Z"),
            Instant.parse("+20000-01-01T00:00:00Z"),
            Instant.ofEpochSecond(-40_000_000_000L));

    @Test
    void everyPurchaseGetsItsOrder_whateverTheValuesAndHeadersItCarries() throws Exception {
        Random random = new Random(SEED);
        Map<String, Case> cases = new HashMap<>();
        try (WriterStack stack = new WriterStack(2);
                OrderWriterApp writer =
                        new OrderWriterApp(stack.settings, new SimpleMeterRegistry(), s -> {}).start()) {
            for (int i = 0; i < CASES; i++) {
                Case c = Case.random(random, i);
                cases.put(c.goods + "/" + c.requestId, c);
                ProducerRecord<String, byte[]> record =
                        new ProducerRecord<>(stack.topics.ledger(), Long.toString(c.goods), Json.write(c.entry()));
                for (byte[] trace : c.traces) record.headers().add(TraceHeaders.TRACE_ID, trace);
                if (random.nextInt(10) == 0) record.headers().add("x-upstream", new byte[random.nextInt(4096)]);
                stack.producer.send(record).get(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> stack.one("SELECT COUNT(*) FROM purchase_order") >= CASES);
            assertThat(stack.one("SELECT COUNT(*) FROM purchase_order"))
                    .as("seed %d: one order per purchase", SEED)
                    .isEqualTo(CASES);
            for (Case c : cases.values()) {
                String trace = stack.text(
                        "SELECT COALESCE(trace_id, '<null>') FROM purchase_order WHERE goods_id = ? AND request_id = ?",
                        c.goods,
                        c.requestId);
                String expected = c.expectedTrace();
                assertThat(trace)
                        .as("seed %d, case %d: the trace id kept (well-formed) or dropped", SEED, c.index)
                        .isEqualTo(expected == null ? "<null>" : expected);
            }
            assertThat(dlqRecords(stack))
                    .as("seed %d: nothing dead-lettered", SEED)
                    .isZero();
        }
    }

    /** One generated purchase: its fields at random extremes, and the trace headers its record carries. */
    private record Case(
            int index,
            long goods,
            String requestId,
            long user,
            int quantity,
            long stockAfter,
            Instant at,
            Instant acceptedAt,
            Long commandOffset,
            Long openOffset,
            List<byte[]> traces) {
        static Case random(Random r, int index) {
            long goods = pick(r, 1L, Long.MAX_VALUE - index, 1_000_000L + index);
            if (goods == 1L) goods = 1L + index; // distinct goods or requestIds: each case is its own purchase
            String requestId = requestId(r, index);
            List<byte[]> traces = new ArrayList<>();
            int headers = r.nextInt(3); // none, one, or two (the last one counts)
            for (int h = 0; h < headers; h++) traces.add(TRACES.get(r.nextInt(TRACES.size())));
            return new Case(
                    index,
                    goods,
                    requestId,
                    pick(r, 1L, Long.MAX_VALUE, 7L),
                    r.nextBoolean() ? 1 : CommandRules.MAX_QUANTITY,
                    pick(r, 0L, Long.MAX_VALUE, 5L),
                    INSTANTS.get(r.nextInt(INSTANTS.size())),
                    INSTANTS.get(r.nextInt(INSTANTS.size())),
                    r.nextBoolean() ? null : pick(r, 0L, Long.MAX_VALUE, 42L),
                    r.nextBoolean() ? null : pick(r, 0L, Long.MAX_VALUE - 1, 41L),
                    traces);
        }

        /** 1 to 64 characters of the id alphabet, with the index in it so that it is unique. */
        private static String requestId(Random r, int index) {
            String alphabet = "ABCXYZabcxyz0123456789._:-";
            String unique = "c" + index + "-";
            int length = switch (r.nextInt(3)) {
                case 0 -> unique.length();
                case 1 -> 64;
                default -> unique.length() + r.nextInt(64 - unique.length() + 1);
            };
            StringBuilder b = new StringBuilder(unique);
            while (b.length() < length) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            return b.toString();
        }

        private static long pick(Random r, long low, long high, long ordinary) {
            return switch (r.nextInt(3)) {
                case 0 -> low;
                case 1 -> high;
                default -> ordinary;
            };
        }

        LedgerEntry entry() {
            LedgerEntry e = LedgerEntry.of(
                    LedgerEntry.deductOpId(goods, requestId),
                    goods,
                    LedgerType.DEDUCTED,
                    quantity,
                    user,
                    requestId,
                    null,
                    stockAfter,
                    at);
            return new LedgerEntry(
                    1,
                    e.opId(),
                    goods,
                    LedgerType.DEDUCTED,
                    quantity,
                    user,
                    requestId,
                    null,
                    stockAfter,
                    at,
                    null,
                    commandOffset,
                    null,
                    acceptedAt,
                    openOffset,
                    null);
        }

        /** What the writer keeps of the last trace header: a well-formed id (or a traceparent's), else nothing. */
        String expectedTrace() {
            if (traces.isEmpty()) return null;
            byte[] last = traces.get(traces.size() - 1);
            String text = new String(last, StandardCharsets.UTF_8);
            if (text.startsWith("00-4bf92f")) return "4bf92f3577b34da6a3ce929d0e0e4736";
            return text.matches("[A-Za-z0-9._-]{1,64}") ? text : null;
        }
    }

    private static long dlqRecords(WriterStack stack) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        stack.admin
                .describeTopics(List.of(stack.topics.dlq()))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .forEach((name, d) -> d.partitions()
                        .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        return stack.admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                .mapToLong(i -> i.offset())
                .sum();
    }
}
