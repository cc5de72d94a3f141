package dev.seckill.infra.bench.fairness;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Drain;
import dev.seckill.infra.harness.DrawBeacons;
import dev.seckill.infra.harness.Latencies;
import dev.seckill.infra.harness.OutcomeLog;
import dev.seckill.infra.harness.Pipeline;
import dev.seckill.infra.harness.draw.DrawCheck;
import dev.seckill.infra.harness.draw.DrawRecords;
import dev.seckill.kit.config.Settings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * One sale of {@code bench fairness}: a goods opened with {@code units} units (one per buyer) under a fairness mode,
 * then every group's buyers each send their requests at the opening — a group {@code delayMs} after it (its distance
 * from the data centre) — as upstream services do, straight to {@code <prefix>commands} with {@code acceptedAt} the
 * moment of sending; then the wins of each group, the draw checked from the topics ({@link DrawCheck}) and how long
 * the buyers waited for their answer.
 */
final class FairSale {
    /** Buyers {@code firstUser..firstUser+buyers-1}, each sending {@code requestsEach} requestIds {@code delayMs} after the opening. */
    record Group(String name, int buyers, int requestsEach, long delayMs, long firstUser) {
        boolean holds(long user) {
            return user >= firstUser && user < firstUser + buyers;
        }
    }

    /** The wins per group, the draw's check (null under fcfs), and each answer's wait (ms) from when it could be given. */
    record Result(Fairness mode, Map<Group, Long> won, DrawCheck.Result draw, long[] answerMs) {
        long answerPercentile(double p) {
            return Latencies.percentile(answerMs, p, 0);
        }
    }

    private FairSale() {}

    static Result run(
            Pipeline p,
            Settings ns,
            OutcomeLog log,
            KafkaProducer<String, byte[]> producer,
            long goods,
            long units,
            Fairness mode,
            long windowMs,
            long allowanceMs,
            List<Group> groups)
            throws Exception {
        Instant start = Instant.now().plusMillis(1_500);
        long window = mode == Fairness.LOTTERY ? windowMs : 0;
        p.send(new OpenSale(
                goods, units, start, start.plusSeconds(3600), 1, "fair-" + UUID.randomUUID(), false, mode, window));
        Topics topics = new Topics(ns.topicPrefix());
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        Set<String> requestIds = new HashSet<>();
        List<Group> byDelay = new ArrayList<>(groups);
        byDelay.sort((a, b) -> Long.compare(a.delayMs(), b.delayMs()));
        for (Group g : byDelay) {
            sleepUntil(start.plusMillis(g.delayMs())); // the group's distance: the workload's own timing
            for (long u = g.firstUser(); u < g.firstUser() + g.buyers(); u++)
                for (int r = 0; r < g.requestsEach(); r++) {
                    Purchase buy = new Purchase("f" + goods + "-" + u + "-" + r, goods, u, 1, Instant.now());
                    requestIds.add(buy.requestId());
                    sent.add(producer.send(
                            new ProducerRecord<>(topics.commands(), buy.key(), CommandCodec.encode(buy))));
                }
        }
        for (Future<RecordMetadata> f : sent) f.get(60, TimeUnit.SECONDS);
        if (!Drain.awaitDecided(log, requestIds, Duration.ofMinutes(3)))
            throw new IllegalStateException(
                    "goods " + goods + ": not every one of " + requestIds.size() + " purchases decided in 3 minutes");
        List<Outcome> mine =
                log.snapshot().stream().filter(o -> o.goodsId() == goods).toList();
        Map<Group, Long> won = new LinkedHashMap<>();
        for (Group g : groups)
            won.put(
                    g,
                    mine.stream()
                            .filter(o -> o.outcome() == OutcomeKind.SUCCESS && g.holds(o.userId()))
                            .count());
        DrawCheck.Result draw = null;
        long answerableAt = 0;
        if (mode == Fairness.LOTTERY) {
            DrawRecords records = DrawRecords.read(ns, goods, DrawBeacons.chains(ns));
            List<DrawCheck.Result> draws = DrawCheck.check(records);
            draw = draws.isEmpty() ? null : draws.get(0);
            answerableAt = start.toEpochMilli() + windowMs + allowanceMs;
        }
        long[] answers = new long[mine.size()];
        for (int i = 0; i < answers.length; i++) {
            Outcome o = mine.get(i);
            answers[i] = o.decidedAt().toEpochMilli()
                    - Math.max(answerableAt, o.acceptedAt().toEpochMilli());
        }
        return new Result(mode, won, draw, answers);
    }

    /**
     * Returns at {@code at} or after it, never before: a group sent a millisecond early (a sleep rounded down) was
     * appended before the window opened and was no entry of the draw — bots left out by the benchmark's own timing.
     */
    static void sleepUntil(Instant at) throws InterruptedException {
        for (Instant now = Instant.now(); now.isBefore(at); now = Instant.now())
            Thread.sleep(Math.max(1, Duration.between(now, at).toMillis() + 1));
    }
}
