package dev.seckill.order;

/** A record that can never be written: it goes to the DLQ with this reason and the writer moves on. */
final class PoisonRecord extends Exception {
    PoisonRecord(String reason) { super(reason); }
}
