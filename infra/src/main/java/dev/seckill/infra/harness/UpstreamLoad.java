package dev.seckill.infra.harness;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.ReliableProducers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What an upstream service does to the system: purchases at a fixed rate, either straight to {@code <p>commands}
 * (acks=all, idempotent, keyed by goodsId: the contract of docs/contracts.md) or through the gateway's HTTP API. Buyers
 * are drawn from {@code 1..users} (so some buy twice: DUPLICATE), and a share of the requests re-sends an earlier one
 * with the same requestId, as a retrying upstream would: the pipeline must decide each requestId once.
 */
public final class UpstreamLoad {
    /** What to send. {@code rate} is per second (open loop: sent on schedule whatever the answers); {@code repeatRatio} 0..1. */
    public record Spec(
            int requests, int rate, List<Long> goods, int users, double repeatRatio, long seed, int maxInFlight) {}

    /** What happened: {@code byStatus} is the HTTP status (or {@code acked}/{@code failed} via Kafka) → count. */
    public record Result(
            long sent, long distinctRequestIds, Map<String, Long> byStatus, long[] latencyMicros, Duration took) {
        public double ratePerSecond() {
            return took.isZero() ? 0 : sent * 1000.0 / took.toMillis();
        }

        public long latencyQuantileMicros(double q) {
            return Latencies.percentile(latencyMicros, 100 * q, 0);
        }
    }

    private UpstreamLoad() {}

    /** The requests of a spec, in sending order: a fresh purchase, or (with {@code repeatRatio}) an earlier one again. */
    public static List<Purchase> plan(Spec s, String idPrefix, Instant acceptedAt) {
        SplittableRandom rnd = new SplittableRandom(s.seed());
        List<Purchase> out = new ArrayList<>(s.requests());
        for (int i = 0; i < s.requests(); i++) {
            if (!out.isEmpty() && rnd.nextDouble() < s.repeatRatio()) {
                out.add(out.get(rnd.nextInt(out.size())));
            } else {
                long goods = s.goods().get(rnd.nextInt(s.goods().size()));
                out.add(new Purchase(idPrefix + i, goods, 1 + rnd.nextInt(s.users()), 1, acceptedAt));
            }
        }
        return out;
    }

    /** Through Kafka: each purchase produced to {@code topics.commands()} and counted once acknowledged. */
    public static Result viaKafka(Settings settings, Topics topics, List<Purchase> plan, Spec s, LongConsumer progress)
            throws Exception {
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(settings)) {
            return paced(plan, s, progress, p -> {
                CompletableFuture<String> done = new CompletableFuture<>();
                producer.send(
                        new ProducerRecord<>(topics.commands(), p.key(), CommandCodec.encode(p)),
                        (md, e) -> done.complete(
                                e == null ? "acked" : "failed: " + e.getClass().getSimpleName()));
                return done;
            });
        }
    }

    /** Through the gateway: {@code POST base/api/purchases}, with a bearer token from {@code tokens} (null: none). */
    public static Result viaHttp(
            String base, LongFunction<String> tokens, List<Purchase> plan, Spec s, LongConsumer progress)
            throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return paced(plan, s, progress, p -> {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + PurchaseHttp.PATH))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            PurchaseHttp.body(p.goodsId(), p.userId(), 1, p.requestId())));
            String token = tokens == null ? null : tokens.apply(p.userId());
            if (token != null) b.header("Authorization", "Bearer " + token);
            return http.sendAsync(b.build(), HttpResponse.BodyHandlers.discarding())
                    .handle((r, e) -> e == null
                            ? Integer.toString(r.statusCode())
                            : "failed: " + e.getClass().getSimpleName());
        });
    }

    private interface Sender {
        CompletableFuture<String> send(Purchase p);
    }

    /** Sends on schedule (the n-th at n/rate s), at most {@code maxInFlight} unanswered; latency from the scheduled time. */
    private static Result paced(List<Purchase> plan, Spec s, LongConsumer progress, Sender sender)
            throws InterruptedException {
        Map<String, Long> byStatus = new ConcurrentHashMap<>();
        long[] latency = new long[plan.size()];
        Semaphore inFlight = new Semaphore(s.maxInFlight());
        AtomicLong answered = new AtomicLong();
        long t0 = System.nanoTime();
        OpenLoopSchedule schedule = new OpenLoopSchedule(t0, s.rate());
        for (int i = 0; i < plan.size(); i++) {
            long due = schedule.dueNanos(i);
            long wait = due - System.nanoTime();
            if (wait > 0)
                TimeUnit.NANOSECONDS.sleep(wait); // open-loop pacing: the schedule, not the answers, sets the rate
            inFlight.acquire();
            int index = i;
            sender.send(plan.get(i)).whenComplete((status, e) -> {
                latency[index] = (System.nanoTime() - due) / 1000;
                byStatus.merge(e != null ? "failed" : status, 1L, Long::sum);
                inFlight.release();
                progress.accept(answered.incrementAndGet());
            });
        }
        inFlight.acquire(s.maxInFlight()); // every answer in
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        long distinct = plan.stream().map(Purchase::requestId).distinct().count();
        return new Result(
                plan.size(),
                distinct,
                new TreeMap<>(byStatus),
                Arrays.stream(latency).sorted().toArray(),
                took);
    }
}
