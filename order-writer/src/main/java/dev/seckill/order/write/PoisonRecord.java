package dev.seckill.order.write;

/** A record that can never be written: it goes to the DLQ with this reason and the writer moves on. */
public final class PoisonRecord extends Exception {
    public PoisonRecord(String reason) {
        super(reason);
    }
}
