package dev.seckill.stock.draw;

import dev.seckill.contracts.ledger.LedgerEntry;

/**
 * What the {@link DrawHold} passes on: a command to decide ({@code raw}) or a DRAWN ledger entry ({@code drawn}), one
 * of the two. Never serialized.
 */
public record Held(byte[] raw, LedgerEntry drawn) {
    static Held command(byte[] raw) {
        return new Held(raw, null);
    }

    static Held drawn(LedgerEntry e) {
        return new Held(null, e);
    }

    public boolean isDrawn() {
        return drawn != null;
    }
}
