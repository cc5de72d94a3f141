-- The DB side of the pipeline (DESIGN.md "Storage"). Works on MySQL 8 and MariaDB 10.11.
-- Times are UTC, DATETIME(3).

-- One row per goods on sale; stock moves by the ledger's deltas (opened - deducted + released).
CREATE TABLE sale (
    goods_id      BIGINT      NOT NULL PRIMARY KEY,
    opened_stock  BIGINT      NOT NULL DEFAULT 0,
    stock         BIGINT      NOT NULL DEFAULT 0,
    status        VARCHAR(16) NOT NULL DEFAULT 'OPEN',
    updated_at    DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)
) ENGINE = InnoDB;

-- One row per SUCCESS outcome. request_id is the idempotency key; live_user_id equals user_id while the order holds
-- stock (CREATED or PAID) and is NULL once CANCELLED, so "one live purchase per (goods, user)" is a unique key.
CREATE TABLE purchase_order (
    order_id          BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    request_id        VARCHAR(64) NOT NULL,
    goods_id          BIGINT      NOT NULL,
    user_id           BIGINT      NOT NULL,
    quantity          INT         NOT NULL,
    status            VARCHAR(16) NOT NULL,
    live_user_id      BIGINT      NULL,
    trace_id          VARCHAR(64) NULL,
    accepted_at       DATETIME(3) NULL,
    decided_at        DATETIME(3) NULL,
    source_partition  INT         NULL,
    source_offset     BIGINT      NULL,
    created_at        DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    paid_at           DATETIME(3) NULL,
    cancelled_at      DATETIME(3) NULL,
    UNIQUE KEY uk_order_request (request_id),
    UNIQUE KEY uk_order_live_buyer (goods_id, live_user_id),
    KEY idx_order_status_created (status, created_at)
) ENGINE = InnoDB;

-- The DB copy of the stock ledger: one row per change, unique op_id (deduct:<requestId> for purchases).
CREATE TABLE stock_ledger (
    id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    op_id        VARCHAR(100) NOT NULL,
    goods_id     BIGINT       NOT NULL,
    type         VARCHAR(16)  NOT NULL,
    quantity     BIGINT       NOT NULL,
    user_id      BIGINT       NULL,
    request_id   VARCHAR(64)  NULL,
    order_id     BIGINT       NULL,
    stock_after  BIGINT       NOT NULL,
    at           DATETIME(3)  NULL,
    trace_id     VARCHAR(64)  NULL,
    recorded_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    UNIQUE KEY uk_ledger_op (op_id),
    KEY idx_ledger_goods (goods_id)
) ENGINE = InnoDB;
