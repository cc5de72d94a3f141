package dev.seckill.stock.bucket;

import dev.seckill.stock.DecidedRecord;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The hops of each decision, as records of the commands topic: keyed by the goods, sealed ({@link HopSeal}), with the
 * command's own headers (its trace) kept, each produced to its bucket's partition ({@link #PARTITIONER}) in the
 * decision's transaction.
 */
public final class HopOut implements Processor<String, DecidedRecord, String, Hop> {
    /** Writes a hop's value; hops are read back as commands, never with this serde. */
    public static final Serde<Hop> SERDE =
            Serdes.serdeFrom((topic, hop) -> hop == null ? null : hop.value(), (topic, bytes) -> {
                throw new UnsupportedOperationException("hops are read as commands");
            });

    /** Bucket b of a goods: the b-th partition after the one Kafka's default partitioner gives its key. */
    public static final StreamPartitioner<String, Hop> PARTITIONER =
            (topic, key, hop, partitions) -> Optional.of(Set.of((home(key, partitions) + hop.bucket()) % partitions));

    private final HopSeal seal;
    private ProcessorContext<String, Hop> context;

    public HopOut(HopSeal seal) {
        this.seal = seal;
    }

    /** The partition Kafka's default partitioner gives {@code key} among {@code partitions}. */
    public static int home(String key, int partitions) {
        return BucketPlan.homeOf(key, partitions);
    }

    @Override
    public void init(ProcessorContext<String, Hop> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, DecidedRecord> record) {
        for (Hop hop : record.value().decision().hops()) {
            Headers headers = seal.headers(hop);
            for (Header h : record.headers()) if (!h.key().startsWith(HopSeal.KIND)) headers.add(h.key(), h.value());
            context.forward(new Record<>(record.key(), hop, record.timestamp(), headers));
        }
    }
}
