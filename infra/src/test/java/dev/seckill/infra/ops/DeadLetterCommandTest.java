package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.dlq.DeadLetters;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.infra.cli.CliCommands;
import dev.seckill.infra.cli.Seckill;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.Namespace;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.TopicRecords;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code ./seckill dlq list|show|resend} on a real pipeline: a poison record the stream dead-lettered, a purchase
 * dead-lettered as stock-stream marks one (then resent twice: one outcome), and an entry from the ledger, which is
 * never resent.
 */
@Tag("light")
class DeadLetterCommandTest {
    static final long GOODS = 5501;

    /** Runs {@code ./seckill args}; its exit code and what it printed. */
    static Object[] run(Settings settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Seckill.run(settings, args, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Object[] {exit, out.toString(StandardCharsets.UTF_8)};
    }

    static String ok(Settings settings, String... args) {
        Object[] r = run(settings, args);
        assertThat((int) r[0]).as((String) r[1]).isZero();
        return (String) r[1];
    }

    @Test
    void anOperatorListsFiltersShowsAndResendsDeadLetters_aResentPurchaseIsDecidedOnce() throws Exception {
        Settings base = LoadCommandTest.pipelineSettings(java.util.Map.of());
        Namespace ns =
                Namespace.create(base, "dlq-" + UUID.randomUUID().toString().substring(0, 6));
        try (Pipeline p = new Pipeline(ns).start();
                OutcomeLog log = new OutcomeLog(base, p.topics())) {
            p.openSale(GOODS, 10, Duration.ofHours(1), 1);
            Settings s = ns.settings();
            String rid = "dlq-owed-" + UUID.randomUUID();
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(s)) {
                // the stream dead-letters a record it cannot read
                producer.send(new ProducerRecord<>(
                                p.topics().commands(),
                                Long.toString(GOODS),
                                "{\"type\":\"purchase\",oops".getBytes(StandardCharsets.UTF_8)))
                        .get(30, TimeUnit.SECONDS);
                // a purchase dead-lettered as stock-stream marks one, owed once its cause is fixed
                ProducerRecord<String, byte[]> owed = new ProducerRecord<>(
                        p.topics().dlq(),
                        Long.toString(GOODS),
                        CommandCodec.encode(new Purchase(rid, GOODS, 7, 1, Instant.now())));
                TraceHeaders.put(owed.headers(), "trace-owed");
                DeadLetters.mark(owed.headers(), "Redis unavailable", p.topics().commands(), 0, 42);
                producer.send(owed).get(30, TimeUnit.SECONDS);
                // a ledger entry the order-writer could not apply
                ProducerRecord<String, byte[]> ledger = new ProducerRecord<>(
                        p.topics().dlq(), "5502", "{\"v\":1,\"goodsId\":5502}".getBytes(StandardCharsets.UTF_8));
                DeadLetters.mark(ledger.headers(), "data truncation", p.topics().ledger(), 1, 7);
                producer.send(ledger).get(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> TopicRecords.read(s, List.of(p.topics().dlq())).size() == 3);

            String all = ok(base, "dlq", "list", "--namespace", ns.name());
            assertThat(all)
                    .contains("3 dead letter(s)")
                    .contains("malformed JSON")
                    .contains("Redis unavailable");
            String poison = ok(base, "dlq", "list", "--namespace", ns.name(), "--reason", "MALFORMED");
            assertThat(poison).contains("1 dead letter(s) matched").doesNotContain("Redis unavailable");
            assertThat(ok(base, "dlq", "list", "--namespace", ns.name(), "--goods", "5502"))
                    .contains("1 dead letter(s) matched")
                    .contains("data truncation");
            String owedAt = at(s, p, "Redis unavailable");
            assertThat(ok(base, "dlq", "show", "--namespace", ns.name(), "--at", owedAt))
                    .contains(rid)
                    .contains("\"traceId\" : \"trace-owed\"")
                    .contains("\"source-offset\" : \"42\"");

            ok(base, "dlq", "resend", "--namespace", ns.name(), "--at", owedAt);
            ok(base, "dlq", "resend", "--namespace", ns.name(), "--at", owedAt);
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            log.snapshot().stream().anyMatch(o -> o.requestId().equals(rid)));
            List<ConsumerRecord<String, byte[]>> resent = TopicRecords.read(
                            s, List.of(p.topics().commands()))
                    .stream()
                    .filter(r -> new String(r.value(), StandardCharsets.UTF_8).contains(rid))
                    .toList();
            assertThat(resent).hasSize(2);
            assertThat(resent.get(0).headers().lastHeader(DeadLetters.ERROR))
                    .as("sent as it came, without the dead-letter headers")
                    .isNull();
            assertThat(TraceHeaders.get(resent.get(0).headers())).isEqualTo("trace-owed");
            // both copies decided (a purchase after them in the goods' partition is): the second is a retry, no outcome
            String after = "after-" + UUID.randomUUID();
            try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(s)) {
                producer.send(new ProducerRecord<>(
                                p.topics().commands(),
                                Long.toString(GOODS),
                                CommandCodec.encode(new Purchase(after, GOODS, 8, 1, Instant.now()))))
                        .get(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            log.snapshot().stream().anyMatch(o -> o.requestId().equals(after)));
            List<Outcome> outcomes = log.snapshot().stream()
                    .filter(o -> o.requestId().equals(rid))
                    .toList();
            assertThat(outcomes).hasSize(1);
            assertThat(outcomes.get(0).outcome().name()).isEqualTo("SUCCESS");

            String[] fromLedger = {"dlq", "resend", "--namespace", ns.name(), "--at", at(s, p, "truncation")};
            assertThat((int) run(base, fromLedger)[0]).as("a usage error").isEqualTo(2);
            assertThatThrownBy(() -> DeadLetterCommand.resend(
                            base,
                            CliCommands.DLQ_RESEND.parse(fromLedger),
                            new PrintStream(new ByteArrayOutputStream())))
                    .isInstanceOf(Flags.UsageError.class)
                    .hasMessageContaining("writes itself");
            assertThat(TopicRecords.read(s, List.of(p.topics().ledger())))
                    .as("nothing added to the ledger")
                    .noneMatch(r -> r.key().equals("5502"));
        } finally {
            ns.deleteTopics();
            ns.deleteRedisKeys();
            ns.dropDatabase();
        }
    }

    /** The P@O of the dead letter whose error contains {@code reason}. */
    static String at(Settings s, Pipeline p, String reason) {
        for (ConsumerRecord<String, byte[]> r :
                TopicRecords.read(s, List.of(p.topics().dlq()))) {
            var h = r.headers().lastHeader(DeadLetters.ERROR);
            if (h != null && new String(h.value(), StandardCharsets.UTF_8).contains(reason))
                return r.partition() + "@" + r.offset();
        }
        throw new AssertionError("no dead letter for " + reason);
    }
}
