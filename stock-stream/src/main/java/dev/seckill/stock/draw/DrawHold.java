package dev.seckill.stock.draw;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.stock.draw.beacon.Fetch;
import dev.seckill.stock.ledger.GoodsFold;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a drawn sale's commands until its window is drawn (docs/invariants.md, "The draw").
 *
 * <ol>
 *   <li><b>The open is decided first.</b> A drawn {@code open_sale} goes to the decide step at once (it drains its
 *       batch for it, {@link DecideNow}); only if the fold then holds the open's offset — it stood — does anything get
 *       held. A refused open (over a live sale, ended before it was sent, a retried opId) holds nothing.
 *   <li><b>From the window's start</b> (by the records' append time) every command of the goods is kept in
 *       {@link #STORE} (changelogged: it commits with the offsets, so a crash or a rebalance restores what was held).
 *   <li><b>The cutoff closes the window</b> — the OPENED entry's {@code cutoffAt}, judged on the broker's append time:
 *       a record of the partition appended after it (the commands topic is {@code LogAppendTime}, so no producer's
 *       clock sets it), or the wall clock past it once the partition has been quiet for the allowance.
 *   <li><b>The beacon round</b> the OPENED entry named is taken once published (its signature checked against the
 *       chain's key; a round not reachable: the draw waits, {@link DrawWaits} says how long). Then the DRAWN entry
 *       publishes the entries' digest, the round and the seed, and the held commands go to the decide step in the
 *       {@link DrawOrder}.
 * </ol>
 * Any other record passes at once: a command without {@code "fairness"} in its bytes is not even parsed.
 */
public final class DrawHold implements Processor<String, byte[], String, Held> {
    public static final String STORE = "draw-holds";
    private static final Logger LOG = LoggerFactory.getLogger(DrawHold.class);
    static final Duration CHECK_EVERY = Duration.ofMillis(50);
    /** The longest a partition read behind its records must be quiet before the wall clock closes a window. */
    static final Duration REPLAY_QUIET = Duration.ofSeconds(10);
    /** In the bytes of every open_sale that is drawn (a lottery, a registration): checked before parsing. */
    private static final byte[] FAIRNESS = "\"fairness\"".getBytes(StandardCharsets.UTF_8);

    private final DrawTerms terms;
    private final DrawWaits waits;
    private final Clock clock;
    private final String foldStore;
    private final Map<Long, PendingDraw> pending = new HashMap<>();
    private ProcessorContext<String, Held> context;
    private HeldStore store;
    private DrawRelease releases;
    private KeyValueStore<Long, GoodsFold> folds;
    private long lastRecordAt;
    /** The newest record time seen: far behind the wall clock when read, the task reads a replay (or a backlog). */
    private long newestRecordTime;
    /** The last reason logged for a round not reachable, per goods (said once, not every 50 ms). */
    private final Map<Long, String> said = new HashMap<>();

    /**
     * @param terms the beacon, the allowance and the margin; {@link DrawTerms#OFF}: nothing is held (the decide step
     *     refuses drawn opens)
     * @param waits where draws waiting for their beacon round are counted (a metric)
     */
    public DrawHold(DrawTerms terms, DrawWaits waits, Clock clock, String foldStore) {
        this.terms = terms;
        this.waits = waits;
        this.clock = clock;
        this.foldStore = foldStore;
    }

    @Override
    public void init(ProcessorContext<String, Held> context) {
        this.context = context;
        this.store = new HeldStore(context.getStateStore(STORE));
        this.folds = context.getStateStore(foldStore);
        this.releases = new DrawRelease(store, h -> admit(h, null), context::commit, terms.releaseChunk());
        releases.load();
        pending.clear();
        for (PendingDraw d : store.pending()) pending.put(d.goodsId(), d);
        // after a restore, what was read but not committed comes again: the wall clock waits a quiet allowance for it
        lastRecordAt = context.currentSystemTimeMs();
        context.schedule(CHECK_EVERY, PunctuationType.WALL_CLOCK_TIME, this::onWallClock);
    }

    @Override
    public void close() {
        pending.keySet().forEach(waits::forget);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.headers().lastHeader(HeldOrigin.HEADER) != null
                || record.headers().lastHeader(HeldOrigin.ENTRY) != null
                || record.headers().lastHeader(DecideNow.HEADER) != null)
            record = record.withHeaders(HeldOrigin.stripped(record.headers()));
        lastRecordAt = context.currentSystemTimeMs();
        newestRecordTime = Math.max(newestRecordTime, record.timestamp());
        if (!pending.isEmpty()) closeWindows(record.timestamp());
        Long goods = CommandBytes.goodsOf(record.key());
        boolean releasing = goods != null && releases.active(goods);
        boolean held = goods != null && pending.containsKey(goods);
        if (!releasing && !held && !(terms.drawing() && CommandBytes.contains(record.value(), FAIRNESS))) {
            context.forward(record.withValue(Held.command(record.value())));
            if (!pending.isEmpty()) drawReady();
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
        if (releasing) releases.holdBehind(goods, h); // after what its drawn window still passes on
        else admit(h, record);
        drawReady();
    }

    /**
     * The wall clock closes a window once it is past the cutoff and the partition has been quiet for the allowance, or
     * for as long as the task was behind its newest record when it read it (at most {@link #REPLAY_QUIET}): a replay
     * drill's copy of a sale recorded seconds ago, or a backlog after a restart, may pause longer than the allowance
     * before the rest of the window's purchases come, and such a pause must not close the window. Then every closed
     * window whose beacon round is published is drawn.
     */
    private void onWallClock(long now) {
        releases.newTransaction();
        releases.passOnAll();
        if (pending.isEmpty()) return;
        long behind = Math.min(lastRecordAt - newestRecordTime, REPLAY_QUIET.toMillis());
        long quiet = Math.max(terms.allowance().toMillis(), behind);
        if (now - lastRecordAt >= quiet) closeWindows(now);
        drawReady();
    }

    /** Marks closed every pending window whose cutoff is before {@code time}: no later record is one of its entries. */
    private void closeWindows(long time) {
        for (PendingDraw d : new ArrayList<>(pending.values())) if (!d.closed() && time > d.cutoffAt()) save(d.close());
    }

    /** Draws every closed window whose beacon round is published (and verified); the others wait, counted. */
    private void drawReady() {
        for (PendingDraw d : new ArrayList<>(pending.values())) {
            if (!d.closed() || releases.active(d.goodsId())) continue; // an earlier draw still passes commands into it
            Fetch f = terms.drawing()
                    ? terms.beacon().round(d.round())
                    : new Fetch.Unreachable("this stream has no beacon (SECKILL_STREAM_DRAW_BEACON=off)");
            if (f instanceof Fetch.Ready r) {
                draw(d, r.round().signature(), r.round().randomness());
                continue;
            }
            waits.waiting(d.goodsId(), d.cutoffAt());
            if (f instanceof Fetch.Unreachable u && !u.reason().equals(said.get(d.goodsId()))) {
                said.put(d.goodsId(), u.reason());
                LOG.warn(
                        "the draw of goods {} waits for beacon round {} (due since its cutoff {}): {}",
                        d.goodsId(),
                        d.round(),
                        d.facts().cutoffAt(),
                        u.reason());
            }
        }
    }

    /**
     * Holds the command when its goods awaits a draw and its window has started (or something is held already), else
     * passes it on — the original record, or a released one — and, for a drawn open, starts holding once it stood.
     */
    private void admit(HeldCommand h, Record<String, byte[]> original) {
        Long goods = CommandBytes.goodsOf(h.key());
        PendingDraw d = goods == null ? null : pending.get(goods);
        if (d != null && (d.holdsAny() || h.timestamp() >= d.windowStart())) {
            store.hold(goods, d.nextSeq(), h);
            save(d.next());
            return;
        }
        boolean opensDraw = terms.drawing() && goods != null && CommandBytes.contains(h.raw(), FAIRNESS);
        if (original != null) {
            Record<String, byte[]> out = original.withValue(original.value());
            if (opensDraw) DecideNow.put(out.headers());
            context.forward(out.withValue(Held.command(h.raw())));
        } else {
            var headers = h.headersWithOrigin();
            if (opensDraw) DecideNow.put(headers);
            context.forward(new Record<>(h.key(), Held.command(h.raw()), h.timestamp(), headers));
        }
        // the decide step has decided the open by now (it drains at a DecideNow): hold only if it stood
        if (opensDraw) startIfOpened(goods, h);
    }

    private void startIfOpened(long goods, HeldCommand h) {
        if (!(CommandCodec.decode(h.raw()) instanceof ParsedCommand.Valid v
                && v.command() instanceof OpenSale o
                && o.fairness().drawn()
                && o.goodsId() == goods)) return;
        GoodsFold fold = folds.get(goods);
        if (fold == null || fold.openOffset != h.offset()) return; // refused: nothing is held
        save(new PendingDraw(
                goods,
                o.opId(),
                h.offset(),
                o.startAt().toEpochMilli(),
                o.fairness(),
                o.windowStart().toEpochMilli(),
                terms.committed(o),
                false,
                releases.firstSeqForNewDraw(goods),
                releases.firstSeqForNewDraw(goods)));
    }

    /** The draw of one sale: its entries frozen in a digest, seeded with the beacon round's randomness, then released. */
    private void draw(PendingDraw d, byte[] signature, byte[] randomness) {
        List<HeldCommand> held = store.list(d.goodsId(), d.firstSeq(), d.nextSeq());
        store.forget(d.goodsId());
        pending.remove(d.goodsId());
        waits.forget(d.goodsId());
        said.remove(d.goodsId());
        DrawOrder order = DrawOrder.of(d, held, randomness);
        GoodsFold fold = folds.get(d.goodsId());
        LedgerEntry drawn = order.drawnEntry(d, signature, fold == null ? 0 : fold.stock, clock.instant());
        context.forward(new Record<>(Long.toString(d.goodsId()), Held.drawn(drawn), Math.max(d.cutoffAt(), 0)));
        releases.start(d, order); // in the draw's order, a chunk per transaction
    }

    private void save(PendingDraw d) {
        pending.put(d.goodsId(), d);
        store.save(d);
    }
}
