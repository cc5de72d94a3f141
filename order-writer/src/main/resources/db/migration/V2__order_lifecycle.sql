-- Order lifecycle: CREATED -> PAID | CANCELLED (payment timeout). A cancelled order's stock goes back through a
-- release command; release_sent_at is the outbox mark (NULL = still to send), so a crash between the cancel and the
-- send only delays the release (the release is idempotent by opId).
ALTER TABLE purchase_order
    ADD COLUMN release_sent_at DATETIME(3) NULL,
    ADD COLUMN payment_id      VARCHAR(64) NULL,
    ADD KEY idx_order_release_outbox (status, release_sent_at);

-- Every payment event seen, accepted or refused (a payment for a cancelled order is refused and recorded).
CREATE TABLE payment (
    payment_id   VARCHAR(64)  NOT NULL PRIMARY KEY,
    order_id     BIGINT       NOT NULL,
    status       VARCHAR(16)  NOT NULL,
    reason       VARCHAR(200) NULL,
    trace_id     VARCHAR(64)  NULL,
    recorded_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    KEY idx_payment_order (order_id)
) ENGINE = InnoDB;
