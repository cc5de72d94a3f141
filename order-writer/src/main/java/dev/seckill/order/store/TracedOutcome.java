package dev.seckill.order.store;

import dev.seckill.contracts.outcome.Outcome;

/** A SUCCESS outcome with the trace id of its record. */
public record TracedOutcome(Outcome outcome, String traceId) {}
