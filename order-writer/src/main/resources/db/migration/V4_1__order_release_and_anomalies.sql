-- Why an order was cancelled: 'payment_timeout' (the sweeper) or the opId of a RELEASED ledger entry that ended it
-- (an operator's or a repair's release). A payment refused for a cancelled order names it.
ALTER TABLE purchase_order
    ADD COLUMN cancel_reason VARCHAR(120) NULL;

-- What the writer met and must not decide alone, for the reconciler and operators: e.g. a RELEASED ledger entry for a
-- PAID order (the unit went back to stock while the buyer paid for it: invariant 7). One row per ledger op.
CREATE TABLE order_anomaly (
    id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    op_id        VARCHAR(100) NOT NULL,
    kind         VARCHAR(40)  NOT NULL,
    goods_id     BIGINT       NOT NULL,
    user_id      BIGINT       NULL,
    order_id     BIGINT       NULL,
    request_id   VARCHAR(64)  NULL,
    detail       VARCHAR(500) NOT NULL,
    recorded_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    UNIQUE KEY uk_anomaly_op (op_id, kind),
    KEY idx_anomaly_goods (goods_id)
) ENGINE = InnoDB;

-- A RELEASED entry whose order row is not written yet (the ledger and outcome topics are read independently): kept
-- until the order arrives, which is then written CANCELLED.
CREATE TABLE early_release (
    op_id       VARCHAR(100) NOT NULL PRIMARY KEY,
    goods_id    BIGINT       NOT NULL,
    user_id     BIGINT       NOT NULL,
    request_id  VARCHAR(64)  NULL,
    recorded_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    KEY idx_early_release_buyer (goods_id, user_id)
) ENGINE = InnoDB;
