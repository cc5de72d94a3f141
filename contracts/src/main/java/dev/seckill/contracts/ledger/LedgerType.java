package dev.seckill.contracts.ledger;

public enum LedgerType { OPENED, DEDUCTED, RELEASED, CLOSED, RESTORED }
