package dev.seckill.gateway.door;

import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.readside.DrawWindows;
import dev.seckill.gateway.status.DrawWait;
import dev.seckill.gateway.status.EntryReceipt;
import java.time.Duration;

/**
 * The {@code WAITING_DRAW} answer of a purchase a draw holds, alike on every route (the POST's 202, the retry, the end
 * of a {@code Prefer: wait}, the GET, the buyer's list) — docs/contracts.md, "The draw":
 *
 * <pre>{"requestId":"…","status":"WAITING_DRAW","drawClosesAt":"&lt;instant&gt;","beaconRound":R,
 *  "entry":{"partition":P,"offset":O,"appendedAt":"&lt;instant&gt;"},"drawDelayed":"the draw waits for beacon round R"}</pre>
 *
 * <ul>
 *   <li>{@code beaconRound}: the round the OPENED entry named, when the answer knows it (an id a gateway issued does not
 *       say it: then from the draw's OPENED entry while it is open);
 *   <li>{@code entry}: where the broker appended the purchase, only where the gateway holds the producer's
 *       acknowledgment ({@link EntryReceipt}): the POST's 202 (every 202 of an accepted purchase is answered after it),
 *       the 202 when a {@code Prefer: wait} runs out, a retry's 202 and the GET at the instance that accepted it;
 *   <li>{@code drawDelayed}: when the draw is late — more than {@link #LATE} past its cutoff and not drawn yet (its
 *       OPENED entry still open, no DRAWN) — so that buyers are told why no outcome came.
 * </ul>
 */
public final class WaitingDraws {
    /** How long past its cutoff a draw not drawn yet is said to be late: its round is published a few seconds after. */
    static final Duration LATE = Duration.ofSeconds(30);

    private WaitingDraws() {}

    /**
     * The answer for a purchase {@code wait}'s draw holds ({@code goodsId}: its goods, null when not known), completed
     * from the draw's OPENED entry while it is open: the exact times and the beacon round, and whether it is late.
     */
    public static Reply reply(
            DrawWindows draws,
            int status,
            String requestId,
            Long goodsId,
            DrawWait wait,
            EntryReceipt entry,
            long nowMs,
            String kind) {
        DrawFacts open = draws.pending(goodsId, wait);
        DrawWait known = open == null ? wait : DrawWait.of(open);
        return Replies.waitingDraw(status, requestId, known, entry, delayed(open, known, nowMs), kind);
    }

    /** {@code drawDelayed} for {@code wait}'s draw, or null when it is not late (or drawn, or not known to be open). */
    public static String delayed(DrawWindows draws, Long goodsId, DrawWait wait, long nowMs) {
        DrawFacts open = draws.pending(goodsId, wait);
        return delayed(open, open == null ? wait : DrawWait.of(open), nowMs);
    }

    private static String delayed(DrawFacts open, DrawWait wait, long nowMs) {
        if (open == null || wait.beaconRound() == null) return null; // drawn, or not known: nothing to tell
        return nowMs - wait.cutoffAt().toEpochMilli() > LATE.toMillis()
                ? "the draw waits for beacon round " + wait.beaconRound()
                : null;
    }
}
