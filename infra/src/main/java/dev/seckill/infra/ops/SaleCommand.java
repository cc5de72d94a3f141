package dev.seckill.infra.ops;

import dev.seckill.contracts.Topics;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.gateway.readside.DrawWindowsBackfill;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.ReportOutput;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import dev.seckill.kit.kafka.ReliableProducers;
import dev.seckill.kit.kafka.TopicProvisioner;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** {@code ./seckill sale open|close}: ops commands through {@code <prefix>commands}, decided in the partition's order. */
public final class SaleCommand {
    private SaleCommand() {}

    /** {@code sale open --goods N --stock N ...}. */
    public static int open(Settings settings, Flags f, PrintStream stdout) throws Exception {
        ReportOutput result = ReportOutput.ofCommand("sale open", f, stdout, System.err);
        PrintStream out = result.text();
        if (!f.has("goods") || !f.has("stock")) throw new Flags.UsageError("sale open needs --goods and --stock");
        Instant start = Instant.now().plusSeconds(f.has("start-in-seconds") ? f.getLong("start-in-seconds", 0) : 0);
        Fairness fairness = Fairness.ofWire(f.get("fairness"));
        if (fairness == null) throw new Flags.UsageError("--fairness is fcfs, lottery or registration");
        long window = f.getLong("window-ms", fairness.drawn() ? 1_000 : 0);
        if (fairness == Fairness.FCFS && window != 0)
            throw new Flags.UsageError("--window-ms is only for --fairness lottery or registration");
        if (fairness.drawn() && (window < 1 || window > OpenSale.MAX_WINDOW_MS))
            throw new Flags.UsageError("--window-ms of a " + fairness.wire() + " is 1.." + OpenSale.MAX_WINDOW_MS);
        long buckets = f.getLong("buckets");
        if (buckets < 1 || buckets > OpenSale.MAX_BUCKETS)
            throw new Flags.UsageError("--buckets is 1.." + OpenSale.MAX_BUCKETS);
        Command command = new OpenSale(
                f.getLong("goods"),
                f.getLong("stock"),
                start,
                start.plus(Duration.ofMinutes(f.getLong("minutes"))),
                (int) f.getLong("limit"),
                "open-" + UUID.randomUUID(),
                f.has("force"),
                fairness,
                window,
                (int) buckets);
        if (buckets > 1)
            out.printf(
                    "%d buckets: the stock split across %d commands partitions, units moving to the bucket that runs"
                            + " short (stock-stream needs SECKILL_STREAM_HOP_SECRET)%n",
                    buckets, buckets);
        if (fairness == Fairness.LOTTERY)
            out.printf(
                    "a lottery: purchases accepted in the first %d ms after %s are drawn when the window closes%n",
                    window, start);
        if (fairness == Fairness.REGISTRATION)
            out.printf(
                    "a registration: purchases accepted from %s to the start %s are registrations, drawn at the start"
                            + " (send this command before the registration opens)%n",
                    start.minusMillis(window), start);
        Instant windowEnd = fairness == Fairness.LOTTERY ? start.plusMillis(window) : start;
        long lookback = settings.get(DrawWindowsBackfill.LOOKBACK_MS);
        if (fairness.drawn() && Duration.between(Instant.now(), windowEnd).toMillis() > lookback)
            out.printf(
                    "note: the draw's window ends more than %s (%d ms) from now: a gateway started inside it will not"
                            + " find this open in the ledger's past; open it later or raise that setting%n",
                    DrawWindowsBackfill.LOOKBACK_MS.env(), lookback);
        result.put("startAt", start.toString()).put("buckets", buckets).put("fairness", fairness.wire());
        return send(settings, f, command, "open_sale", result);
    }

    /** {@code sale close --goods N}. */
    public static int close(Settings settings, Flags f, PrintStream stdout) throws Exception {
        if (!f.has("goods")) throw new Flags.UsageError("sale close needs --goods");
        ReportOutput result = ReportOutput.ofCommand("sale close", f, stdout, System.err);
        return send(
                settings, f, new CloseSale(f.getLong("goods", 0), "close-" + UUID.randomUUID()), "close_sale", result);
    }

    /**
     * Sends {@code command} and says where it went: a line, or with {@code --json} the document {@code {"command",
     * "flags", "sent", "goods", "topic", "partition", "offset", "opId", "exit"}} (and what the command put before).
     */
    private static int send(Settings settings, Flags f, Command command, String kind, ReportOutput result)
            throws Exception {
        KafkaClients.require(settings, "run ./seckill up");
        settings = NamespaceCommands.chosen(settings, f);
        Topics topics = new Topics(settings.topicPrefix());
        TopicProvisioner.ensure(settings, topics);
        try (KafkaProducer<String, byte[]> producer = ReliableProducers.create(settings)) {
            RecordMetadata meta = producer.send(
                            new ProducerRecord<>(topics.commands(), command.key(), CommandCodec.encode(command)))
                    .get(30, TimeUnit.SECONDS);
            result.text()
                    .printf(
                            "sent %s to %s partition %d offset %d (opId %s); stock-stream decides it in that"
                                    + " partition's order%n",
                            kind, topics.commands(), meta.partition(), meta.offset(), command.idempotencyId());
            result.put("sent", kind).put("goods", command.goodsId()).put("topic", topics.commands());
            result.put("partition", meta.partition()).put("offset", meta.offset());
            result.put("opId", command.idempotencyId());
        }
        return result.finish(0);
    }
}
