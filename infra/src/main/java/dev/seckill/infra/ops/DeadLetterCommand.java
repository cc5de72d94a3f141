package dev.seckill.infra.ops;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.TopicRecords;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * {@code ./seckill dlq list|show|resend}: the dead letters of {@code <prefix>dlq} as an operator acts on them
 * (docs/operations.md, "Dead letters"). {@code list} filters by reason, goods and time; {@code show} prints one whole;
 * {@code resend} sends the record as it came — its key, value and own headers, without the dead-letter ones — back to
 * the input topic it came from, where the normal path decides it again: a purchase by its requestId, an operation by its
 * opId, a payment by its paymentId, so resending twice changes nothing. A record dead-lettered from a topic the
 * pipeline writes itself (the ledger) is never resent: that would add to the ledger; fix the cause and let the
 * service read it again.
 */
public final class DeadLetterCommand {
    private static final Pattern GOODS_IN_VALUE = Pattern.compile("\"goodsId\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern AT = Pattern.compile("(\\d+)@(\\d+)");

    private DeadLetterCommand() {}

    /** One dead letter as read: where it sits on the DLQ, when it was appended, and the record. */
    record Letter(ConsumerRecord<String, byte[]> record) {
        String at() {
            return record.partition() + "@" + record.offset();
        }

        String header(String name) {
            Header h = record.headers().lastHeader(name);
            return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }

        String source() {
            return header(DeadLetters.SOURCE_TOPIC) + " " + header(DeadLetters.SOURCE_PARTITION) + "@"
                    + header(DeadLetters.SOURCE_OFFSET);
        }

        /** The goods the record is about: its key, else a goodsId in its value. */
        String goods() {
            if (record.key() != null && record.key().matches("\\d+")) return record.key();
            Matcher m = GOODS_IN_VALUE.matcher(text(record.value()));
            return m.find() ? m.group(1) : null;
        }
    }

    public static int list(Settings base, Flags f, PrintStream out) {
        List<Letter> letters = chosen(read(base, f), f);
        if (f.has("json")) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Letter l : letters) rows.add(row(l));
            out.println(JsonOutput.render(JsonOutput.tree(Map.of("deadLetters", rows))));
            return 0;
        }
        for (Letter l : letters)
            out.printf(
                    "%-10s %s  from %-28s key %-8s %s%n",
                    l.at(),
                    Instant.ofEpochMilli(l.record().timestamp()),
                    l.source(),
                    l.record().key(),
                    shorten(l.header(DeadLetters.ERROR), 100));
        out.printf("%,d dead letter(s)%s%n", letters.size(), filtered(f) ? " matched" : "");
        return 0;
    }

    public static int show(Settings base, Flags f, PrintStream out) {
        for (Letter l : at(read(base, f), f)) {
            out.println(JsonOutput.render(JsonOutput.tree(row(l))));
        }
        return 0;
    }

    public static int resend(Settings base, Flags f, PrintStream out) throws Exception {
        Settings settings = NamespaceCommands.chosen(base, f);
        Topics topics = new Topics(settings.topicPrefix());
        Set<String> inputs = Set.of(topics.commands(), topics.payments());
        List<Letter> letters = f.has("at") ? at(read(base, f), f) : chosen(read(base, f), f);
        if (letters.isEmpty()) throw new Flags.UsageError("dlq resend: no dead letter matches");
        for (Letter l : letters) {
            String source = l.header(DeadLetters.SOURCE_TOPIC);
            if (!inputs.contains(source))
                throw new Flags.UsageError("dlq resend: " + l.at() + " came from " + source + ", which the pipeline"
                        + " writes itself; resending it would add to it. Fix the cause (docs/operations.md, \"Dead"
                        + " letters\") and let the service read it again");
        }
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(settings)) {
            for (Letter l : letters) {
                ProducerRecord<String, byte[]> r = new ProducerRecord<>(
                        l.header(DeadLetters.SOURCE_TOPIC),
                        l.record().key(),
                        l.record().value());
                for (Header h : l.record().headers())
                    if (!DEAD_LETTER_HEADERS.contains(h.key())) r.headers().add(h);
                RecordMetadata meta = producer.send(r).get(30, TimeUnit.SECONDS);
                out.printf(
                        "resent %s to %s partition %d offset %d (decided again by the normal path: its id makes a"
                                + " second resend a no-op)%n",
                        l.at(), meta.topic(), meta.partition(), meta.offset());
            }
        }
        return 0;
    }

    static final Set<String> DEAD_LETTER_HEADERS = Set.of(
            DeadLetters.ERROR, DeadLetters.SOURCE_TOPIC, DeadLetters.SOURCE_PARTITION, DeadLetters.SOURCE_OFFSET);

    private static List<Letter> read(Settings base, Flags f) {
        KafkaClients.require(base, "run ./seckill up");
        Settings settings = NamespaceCommands.chosen(base, f);
        String dlq = new Topics(settings.topicPrefix()).dlq();
        List<Letter> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TopicRecords.read(settings, List.of(dlq))) out.add(new Letter(r));
        return out;
    }

    private static boolean filtered(Flags f) {
        return f.has("reason") || f.has("goods") || f.has("minutes");
    }

    /** The letters {@code --reason} (a part of the error, any case), {@code --goods} and {@code --minutes} choose. */
    static List<Letter> chosen(List<Letter> all, Flags f) {
        String reason = f.get("reason", "").toLowerCase(Locale.ROOT);
        String goods = f.has("goods") ? Long.toString(f.getLong("goods", 0)) : null;
        long since = f.has("minutes")
                ? Instant.now()
                        .minus(Duration.ofMinutes(f.getLong("minutes", 0)))
                        .toEpochMilli()
                : Long.MIN_VALUE;
        List<Letter> out = new ArrayList<>();
        for (Letter l : all) {
            String error = l.header(DeadLetters.ERROR);
            if (!reason.isEmpty()
                    && (error == null || !error.toLowerCase(Locale.ROOT).contains(reason))) continue;
            if (goods != null && !goods.equals(l.goods())) continue;
            if (l.record().timestamp() < since) continue;
            out.add(l);
        }
        return out;
    }

    /** The letters {@code --at P@O} names (one or several, comma-separated); an unknown position is a usage error. */
    static List<Letter> at(List<Letter> all, Flags f) {
        if (!f.has("at")) throw new Flags.UsageError("--at PARTITION@OFFSET is required (as dlq list prints it)");
        List<Letter> out = new ArrayList<>();
        for (String at : f.get("at", "").split(",")) {
            Matcher m = AT.matcher(at.strip());
            if (!m.matches()) throw new Flags.UsageError("--at " + at + ": PARTITION@OFFSET, e.g. 0@17");
            Letter found = null;
            for (Letter l : all) if (l.at().equals(m.group(1) + "@" + m.group(2))) found = l;
            if (found == null) throw new Flags.UsageError("--at " + at + ": no dead letter there");
            out.add(found);
        }
        return out;
    }

    private static Map<String, Object> row(Letter l) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("at", l.at());
        row.put("appendedAt", Instant.ofEpochMilli(l.record().timestamp()).toString());
        row.put("key", l.record().key());
        row.put("goods", l.goods());
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : l.record().headers()) headers.put(h.key(), text(h.value()));
        row.put("headers", headers);
        row.put("value", text(l.record().value()));
        return row;
    }

    /** UTF-8 text as it is, else the bytes in hex (a poisoned value need not be text). */
    static String text(byte[] bytes) {
        if (bytes == null) return null;
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            StringBuilder hex = new StringBuilder("hex:");
            for (byte b : bytes) hex.append(String.format("%02x", b));
            return hex.toString();
        }
    }

    private static String shorten(String s, int max) {
        if (s == null) return "-";
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
