package dev.seckill.reconcile;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The per-goods drift gauges ({@code seckill_reconcile_drift{goods, source}}: Redis or DB stock minus the ledger's),
 * registered on first use and removed when a sale has ended and settled, so the series end with the sale.
 */
final class DriftGauges {
    private final MeterRegistry metrics;
    private final Map<String, AtomicLong> byGoodsAndSource = new ConcurrentHashMap<>();

    DriftGauges(MeterRegistry metrics) {
        this.metrics = metrics;
    }

    void set(long goods, String source, long value) {
        byGoodsAndSource
                .computeIfAbsent(goods + "/" + source, k -> {
                    AtomicLong holder = new AtomicLong();
                    metrics.gauge(
                            "seckill_reconcile_drift",
                            Tags.of("goods", Long.toString(goods), "source", source),
                            holder,
                            AtomicLong::get);
                    return holder;
                })
                .set(value);
    }

    void retire(long goods) {
        for (String source : List.of("redis", "db")) {
            if (byGoodsAndSource.remove(goods + "/" + source) == null) continue;
            metrics.find("seckill_reconcile_drift")
                    .tags("goods", Long.toString(goods), "source", source)
                    .meters()
                    .forEach(metrics::remove);
        }
    }

    Set<Long> goods() {
        Set<Long> out = new TreeSet<>();
        byGoodsAndSource.keySet().forEach(k -> out.add(Long.parseLong(k.substring(0, k.indexOf('/')))));
        return out;
    }
}
