package dev.seckill.stock;

import dev.seckill.stock.decision.Decision;

/** A decision together with the raw command it came from (kept for the DLQ). Never serialized. */
public record DecidedRecord(Decision decision, byte[] raw) {}
