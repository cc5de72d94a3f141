package dev.seckill.contracts.outcome;

public enum OutcomeKind {
    SUCCESS,
    SOLD_OUT,
    DUPLICATE,
    REJECTED
}
