package dev.seckill.gateway.readside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.gateway.door.WaitingDraws;
import dev.seckill.gateway.status.DrawWait;
import dev.seckill.kit.config.Settings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ledger's past, read at start, against what the live ledger says meanwhile: a past OPENED counts unless the live
 * ledger has since opened, drawn or closed that goods' sale (the past is older); a live entry that does not change a
 * window (a deduction) does not hide the past open; once the past was read, only the live ledger counts.
 */
@Tag("fast")
class DrawWindowsTest {
    static final Instant CLOSES = Instant.now().plusSeconds(300);
    static final String CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";

    static LedgerEntry opened(long goods) {
        return LedgerEntry.of("open-" + goods, goods, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(DrawFacts.committed(Fairness.LOTTERY, 600_000, CLOSES, CLOSES.plusSeconds(1), CHAIN, 42));
    }

    static LedgerEntry entry(long goods, LedgerType type) {
        return LedgerEntry.of(type + "-" + goods, goods, type, 1, 1L, "r1", null, 4, Instant.now());
    }

    @Test
    void thePastCountsOnlyWhereTheLiveLedgerHasNotSpokenOfTheWindow() {
        DrawWindows w = new DrawWindows();
        w.onLedger(entry(1, LedgerType.DRAWN)); // live: goods 1 drawn meanwhile
        w.onLedger(entry(2, LedgerType.DEDUCTED)); // live: a deduction of goods 2 says nothing of its window
        w.past(opened(1));
        w.past(opened(2));
        w.past(opened(3));
        assertThat(w.closesAt(1, Instant.now()))
                .as("drawn since: the past open is stale")
                .isNull();
        assertThat(w.closesAt(2, Instant.now())).isEqualTo(CLOSES);
        assertThat(w.closesAt(3, Instant.now())).isEqualTo(CLOSES);
        w.past(entry(3, LedgerType.DRAWN));
        assertThat(w.closesAt(3, Instant.now())).as("drawn in the past too").isNull();

        w.pastRead();
        w.past(opened(4));
        assertThat(w.closesAt(4, Instant.now()))
                .as("after the read, the past is not heard")
                .isNull();
        w.onLedger(opened(4));
        assertThat(w.closesAt(4, Instant.now())).isEqualTo(CLOSES);
        assertThat(w.size()).isEqualTo(2);
    }

    /**
     * The stream holds a goods' purchases from its window's start until its draw ran: a purchase after the window, while
     * the draw waits for its cutoff and beacon round, waits for it too. An id's draw (no goods) is found by its times; a
     * draw more than 30 s past its cutoff and not drawn is late; once DRAWN, nothing is held or late.
     */
    @Test
    void aPurchaseIsHeldFromTheWindowsStartUntilTheDrawRan_andADrawPastItsCutoffBy30sIsLate() {
        DrawWindows w = new DrawWindows();
        w.pastRead();
        Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        w.onLedger(LedgerEntry.of("open-9", 9, LedgerType.OPENED, 5, null, null, null, 5, Instant.now())
                .withCommandOffset(0)
                .withDraw(DrawFacts.committed(Fairness.LOTTERY, 60_000, end, end.plusSeconds(1), CHAIN, 42)));
        assertThat(w.holding(9, end.minusSeconds(60).minusMillis(1)))
                .as("before the window's start")
                .isNull();
        assertThat(w.holding(9, end.minusSeconds(60))).isNotNull();
        assertThat(w.closesAt(9, end.plusSeconds(600)))
                .as("after the window, the draw not run yet: held for it")
                .isEqualTo(end);
        DrawWait wait = DrawWait.of(w.holding(9, end));
        assertThat(wait).isEqualTo(new DrawWait(end, end.plusSeconds(1), 42L));
        assertThat(w.pending(null, new DrawWait(end, end.plusSeconds(1), null)))
                .as("an issued id's draw, by its times")
                .isNotNull();
        assertThat(w.pending(null, new DrawWait(end, end.plusSeconds(2), null)))
                .as("another cutoff")
                .isNull();
        assertThat(w.pending(8L, wait)).as("another goods").isNull();
        long cutoff = end.plusSeconds(1).toEpochMilli();
        assertThat(WaitingDraws.delayed(w, 9L, wait, cutoff + 30_000)).isNull();
        assertThat(WaitingDraws.delayed(w, null, new DrawWait(end, end.plusSeconds(1), null), cutoff + 30_001))
                .isEqualTo("the draw waits for beacon round 42");

        w.onLedger(entry(9, LedgerType.DRAWN));
        assertThat(w.holding(9, end)).isNull();
        assertThat(WaitingDraws.delayed(w, 9L, wait, cutoff + 60_000))
                .as("drawn: the outcome comes, nothing to tell")
                .isNull();
    }

    @Test
    void theReadBackParsesOnlyWindowEntries_toldByTheirBytes() {
        assertThat(DrawWindowsBackfill.namesAWindowEntry(Json.write(opened(7)))).isTrue();
        assertThat(DrawWindowsBackfill.namesAWindowEntry(Json.write(entry(7, LedgerType.DRAWN))))
                .isTrue();
        assertThat(DrawWindowsBackfill.namesAWindowEntry(Json.write(entry(7, LedgerType.CLOSED))))
                .isTrue();
        assertThat(DrawWindowsBackfill.namesAWindowEntry(Json.write(entry(7, LedgerType.DEDUCTED))))
                .isFalse();
        assertThat(DrawWindowsBackfill.namesAWindowEntry(Json.write(entry(7, LedgerType.RELEASED))))
                .isFalse();
        assertThat(DrawWindowsBackfill.namesAWindowEntry(null)).isFalse();
    }

    @Test
    void aNegativeLookbackIsRefusedInOneLine_andThePastIsClosedAnyway() {
        DrawWindows w = new DrawWindows();
        Settings s = Settings.with(Map.of(DrawWindowsBackfill.LOOKBACK_MS.name(), "-1"));
        assertThatThrownBy(() -> DrawWindowsBackfill.read(s, new Topics("dw-x."), w, Duration.ofSeconds(1)))
                .hasMessage("SECKILL_GATEWAY_DRAW_LOOKBACK_MS must be 0 (not read) or more, got -1");
        w.past(opened(8));
        assertThat(w.closesAt(8, Instant.now()))
                .as("past read (refused): only the live ledger counts")
                .isNull();
    }
}
