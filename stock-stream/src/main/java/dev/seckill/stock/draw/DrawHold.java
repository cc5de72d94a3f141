package dev.seckill.stock.draw;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.stock.ledger.FoldStore;
import dev.seckill.stock.ledger.GoodsFold;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Holds a lottery sale's commands until its window is drawn (docs/invariants.md, "The draw"). When a lottery
 * {@code open_sale} passes, every later command of its goods is kept in {@link #STORE} (changelogged: it commits with
 * the offsets, so a crash or a rebalance restores what was held) until the draw is due — the window's end plus the
 * allowance for late arrivals — by the time of a record of the partition, or by the wall clock once the partition has
 * been quiet for the allowance (a replay's copies carry their recorded times, so a replay draws the same purchases).
 * Then, if the open stood (the fold holds its offset), the DRAWN entry reveals the seed and the held commands go to
 * the decide step in the {@link DrawOrder}; an open that was refused releases them in arrival order. Any other record
 * passes at once: a command without {@code "lottery"} in its bytes is not even parsed.
 */
public final class DrawHold implements Processor<String, byte[], String, Held> {
    public static final String STORE = "draw-holds";
    static final Duration CHECK_EVERY = Duration.ofMillis(50);
    /** Records this far behind the wall clock are a replay or a backlog, not live traffic. */
    static final Duration LIVE_LAG = Duration.ofSeconds(60);
    /** How long a replay's partition must be quiet before the wall clock draws. */
    static final Duration REPLAY_QUIET = Duration.ofSeconds(10);
    /**
     * How long after it was first due a draw waits for the decision of its open: an open the decision refused without
     * keeping a decision (ended before it was issued, forced over live buyers) is then taken as refused, and the held
     * commands go on in arrival order rather than wait for ever.
     */
    static final Duration UNDECIDED_OPEN = Duration.ofSeconds(5);
    /** In the bytes of every open_sale that is drawn (a lottery, a registration): checked before parsing. */
    private static final byte[] FAIRNESS = "\"fairness\"".getBytes(StandardCharsets.UTF_8);

    private final byte[] secret;
    private final long allowanceMs;
    private final Clock clock;
    private final String foldStore;
    private final String decisionsStore;
    private final Map<Long, PendingDraw> pending = new HashMap<>();
    private ProcessorContext<String, Held> context;
    private KeyValueStore<String, byte[]> store;
    private KeyValueStore<Long, GoodsFold> folds;
    private KeyValueStore<String, String> decisions;
    private long lastRecordAt;
    /** The newest record time seen: far behind the wall clock, the task reads a replay (or a backlog). */
    private long newestRecordTime;
    /** When each pending draw was first found due with its open not decided yet (in memory: a restart waits anew). */
    private final Map<Long, Long> undecidedSince = new HashMap<>();

    /**
     * @param secret the stream's draw secret; null or empty: no sale is held (the decide step refuses lottery opens)
     * @param allowance how long after the window's end a purchase accepted in it may still arrive and be drawn
     */
    public DrawHold(byte[] secret, Duration allowance, Clock clock, String foldStore, String decisionsStore) {
        this.secret = secret == null || secret.length == 0 ? null : secret;
        this.allowanceMs = allowance.toMillis();
        this.clock = clock;
        this.foldStore = foldStore;
        this.decisionsStore = decisionsStore;
    }

    @Override
    public void init(ProcessorContext<String, Held> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
        this.folds = context.getStateStore(foldStore);
        this.decisions = context.getStateStore(decisionsStore);
        pending.clear();
        undecidedSince.clear();
        try (KeyValueIterator<String, byte[]> it = store.range("s:", "s;")) {
            while (it.hasNext()) {
                PendingDraw d = Json.read(it.next().value, PendingDraw.class);
                pending.put(d.goodsId(), d);
            }
        }
        // after a restore, what was read but not committed comes again: the wall clock waits a quiet allowance for it
        lastRecordAt = context.currentSystemTimeMs();
        context.schedule(CHECK_EVERY, PunctuationType.WALL_CLOCK_TIME, this::onWallClock);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        // the origin header is the hold's own, between two processors of one task: never taken from outside
        if (record.headers().lastHeader(HeldOrigin.HEADER) != null)
            record = record.withHeaders(HeldOrigin.stripped(record.headers()));
        lastRecordAt = context.currentSystemTimeMs();
        newestRecordTime = Math.max(newestRecordTime, record.timestamp());
        if (!pending.isEmpty()) drawDue(record.timestamp());
        // the common case, a command of a goods with no draw pending that opens no lottery: passed on as it is
        boolean held = !pending.isEmpty() && pending.containsKey(CommandBytes.goodsOf(record.key()));
        if (!held && (secret == null || !CommandBytes.contains(record.value(), FAIRNESS))) {
            context.forward(record.withValue(Held.command(record.value())));
            return;
        }
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        HeldCommand h = new HeldCommand(
                record.key(),
                record.value(),
                meta.topic(),
                meta.partition(),
                meta.offset(),
                record.timestamp(),
                HeldCommand.copy(record.headers()));
        admit(h, record);
    }

    /**
     * The wall clock draws once the partition has been quiet for the allowance — for {@link #REPLAY_QUIET} when the
     * newest record is much older than the clock (a replay, a backlog after a restart): a pause in a drill's copy must
     * not draw before the rest of the window's purchases come.
     */
    private void onWallClock(long now) {
        if (pending.isEmpty()) return;
        long quiet = now - newestRecordTime > LIVE_LAG.toMillis()
                ? Math.max(allowanceMs, REPLAY_QUIET.toMillis())
                : allowanceMs;
        if (now - lastRecordAt >= quiet) drawDue(now);
    }

    /** Draws every pending sale due by {@code time}. */
    private void drawDue(long time) {
        for (PendingDraw d : new ArrayList<>(pending.values())) if (d.dueAt() <= time) draw(d);
    }

    /** Holds the command when its goods awaits a draw, else passes it on (the original record, or a released one). */
    private void admit(HeldCommand h, Record<String, byte[]> original) {
        Long goods = CommandBytes.goodsOf(h.key());
        PendingDraw d = goods == null ? null : pending.get(goods);
        if (d != null) {
            store.put(heldKey(goods, d.nextSeq()), Json.write(h));
            save(d.next());
            return;
        }
        if (original != null) context.forward(original.withValue(Held.command(h.raw())));
        else context.forward(new Record<>(h.key(), Held.command(h.raw()), h.timestamp(), h.headersWithOrigin()));
        if (secret != null && goods != null && CommandBytes.contains(h.raw(), FAIRNESS)) startIfDrawn(goods, h);
    }

    private void startIfDrawn(long goods, HeldCommand h) {
        if (CommandCodec.decode(h.raw()) instanceof ParsedCommand.Valid v
                && v.command() instanceof OpenSale o
                && o.fairness().drawn()
                && o.goodsId() == goods) {
            save(new PendingDraw(
                    goods,
                    o.opId(),
                    h.offset(),
                    o.startAt().toEpochMilli(),
                    o.fairness(),
                    o.windowStart().toEpochMilli(),
                    o.windowMs(),
                    o.windowEnd().toEpochMilli() + allowanceMs,
                    0));
        }
    }

    /**
     * The draw of one sale, once the decide step has decided its open (the fold holds the open's offset: it stood; the
     * open's id is decided but the fold holds another: it was refused). Not decided yet: tried again later.
     */
    private void draw(PendingDraw d) {
        GoodsFold fold = folds.get(d.goodsId());
        // no secret (an instance started without it after the open): no draw can be made; the commands go on in order
        boolean stood = secret != null && fold != null && fold.openOffset == d.openOffset();
        boolean decided = decisions.get(FoldStore.decisionKey(d.goodsId(), FoldStore.operationKey(d.opId()))) != null;
        long now = context.currentSystemTimeMs();
        if (!stood
                && !decided
                && secret != null
                && now - undecidedSince.computeIfAbsent(d.goodsId(), g -> now) < UNDECIDED_OPEN.toMillis()) return;
        undecidedSince.remove(d.goodsId());
        List<HeldCommand> held = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it =
                store.range(heldKey(d.goodsId(), 0), heldKey(d.goodsId(), Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                keys.add(kv.key);
                held.add(Json.read(kv.value, HeldCommand.class));
            }
        }
        keys.forEach(store::delete);
        store.delete(stateKey(d.goodsId()));
        pending.remove(d.goodsId());
        if (!stood) {
            for (HeldCommand h : held) admit(h, null);
            return;
        }
        byte[] seed = Draw.seed(secret, d.goodsId(), d.opId(), d.startAt());
        DrawOrder order = DrawOrder.of(d, seed, held);
        LedgerEntry drawn = LedgerEntry.of(
                        LedgerEntry.drawnOpId(d.goodsId(), d.openOffset()),
                        d.goodsId(),
                        LedgerType.DRAWN,
                        0,
                        null,
                        null,
                        null,
                        fold.stock,
                        clock.instant())
                .withDraw(DrawFacts.revealed(
                        d.mode(),
                        d.windowMs(),
                        Instant.ofEpochMilli(d.windowEnd()),
                        Draw.commitment(seed),
                        seed,
                        order.throughOffset(),
                        order.buyers().size()));
        context.forward(new Record<>(Long.toString(d.goodsId()), Held.drawn(drawn), d.dueAt()));
        for (HeldCommand h : order.sequence()) admit(h, null);
    }

    private void save(PendingDraw d) {
        pending.put(d.goodsId(), d);
        store.put(stateKey(d.goodsId()), Json.write(d));
    }

    private static String stateKey(long goods) {
        return "s:" + goods;
    }

    /** A held command's key: the goods, then its sequence zero-padded, so a range reads them in arrival order. */
    static String heldKey(long goods, long seq) {
        return "h:" + goods + ":" + String.format("%019d", seq);
    }
}
