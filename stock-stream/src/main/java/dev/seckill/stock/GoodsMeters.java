package dev.seckill.stock;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.stock.decision.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the people running a sale watch, per goods (the dashboard's "Per goods" row): its units left as the last
 * decision left them ({@code seckill_goods_stock_left}), its decisions by outcome ({@code seckill_goods_decisions_total}),
 * the time from a purchase's acceptance to its decision ({@code seckill_goods_answer_seconds}, buckets from 5 ms to 10
 * s) and the moment its last unit sold ({@code seckill_goods_sold_out_at_seconds}, epoch seconds; 0 while units are
 * left). One set of series per goods with a sale, begun by its ledger entries and removed once its sale's keys
 * expired.
 * Shared by the stream's tasks (a goods is decided in one).
 */
final class GoodsMeters {
    private static final Duration[] ANSWER_BUCKETS = {
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)
    };

    private final class Goods {
        final List<Meter> meters = new ArrayList<>();
        final AtomicLong stockLeft = new AtomicLong();
        final AtomicLong soldOutAt = new AtomicLong();
        final Map<OutcomeKind, Counter> decisions = new EnumMap<>(OutcomeKind.class);
        final Timer answer;
        final String goods;

        Goods(long goodsId) {
            goods = Long.toString(goodsId);
            meters.add(Gauge.builder("seckill_goods_stock_left", stockLeft, AtomicLong::get)
                    .description("units left of the goods' sale, as the last decision left them")
                    .tag("goods", goods)
                    .register(registry));
            meters.add(Gauge.builder("seckill_goods_sold_out_at_seconds", soldOutAt, AtomicLong::get)
                    .description("when the goods' last unit sold (epoch seconds; 0 while units are left)")
                    .tag("goods", goods)
                    .register(registry));
            for (OutcomeKind kind : OutcomeKind.values()) {
                Counter c = Counter.builder("seckill_goods_decisions")
                        .description("purchases of the goods decided, by outcome")
                        .tags("goods", goods, "outcome", kind.name())
                        .register(registry);
                decisions.put(kind, c);
                meters.add(c);
            }
            answer = Timer.builder("seckill_goods_answer")
                    .description("from a purchase's acceptance at the gateway to its decision, per goods")
                    .tag("goods", goods)
                    .serviceLevelObjectives(ANSWER_BUCKETS)
                    .register(registry);
            meters.add(answer);
        }
    }

    private final MeterRegistry registry;
    private final Map<Long, Goods> goods = new ConcurrentHashMap<>();

    GoodsMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * One decision forwarded: its ledger entry's units left kept, its outcome counted and timed. Only a goods with a
     * sale has series: they begin with its first ledger entry (an open, or the first change this instance decides after
     * a task moved here), so purchases of goods no sale exists for — any id a client makes up — make none.
     */
    void decided(Decision d) {
        LedgerEntry e = d.ledger();
        if (e != null) {
            Goods g = goods.computeIfAbsent(e.goodsId(), Goods::new);
            g.stockLeft.set(e.stockAfter());
            if (e.stockAfter() > 0) g.soldOutAt.set(0);
            else if (e.type() == LedgerType.DEDUCTED && g.soldOutAt.get() == 0 && e.at() != null)
                g.soldOutAt.set(e.at().getEpochSecond());
        }
        Outcome o = d.outcome();
        if (o == null) return;
        Goods g = goods.get(o.goodsId());
        if (g == null) return;
        g.decisions.get(o.outcome()).increment();
        if (o.acceptedAt() != null && o.decidedAt() != null) {
            long ms = o.decidedAt().toEpochMilli() - o.acceptedAt().toEpochMilli();
            if (ms >= 0) g.answer.record(Duration.ofMillis(ms));
        }
    }

    /** The goods' sale is over and its keys expired: its series end. */
    void retire(long goodsId) {
        Goods g = goods.remove(goodsId);
        if (g != null) g.meters.forEach(registry::remove);
    }
}
