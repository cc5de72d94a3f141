-- The reconciler's durable ledger fold (so a restart does not re-read the ledger from the beginning), the ledger
-- offsets it has folded (committed in the same transaction as the fold), and its audit trail.
CREATE TABLE reconcile_fold (
    goods_id  BIGINT NOT NULL PRIMARY KEY,
    opened    BIGINT NOT NULL DEFAULT 0,
    deducted  BIGINT NOT NULL DEFAULT 0,
    released  BIGINT NOT NULL DEFAULT 0
) ENGINE = InnoDB;

CREATE TABLE reconcile_holding (
    goods_id    BIGINT      NOT NULL,
    user_id     BIGINT      NOT NULL,
    request_id  VARCHAR(64) NOT NULL,
    quantity    BIGINT      NOT NULL,
    PRIMARY KEY (goods_id, user_id)
) ENGINE = InnoDB;

CREATE TABLE reconcile_offset (
    topic        VARCHAR(200) NOT NULL,
    part         INT          NOT NULL,
    next_offset  BIGINT       NOT NULL,
    PRIMARY KEY (topic, part)
) ENGINE = InnoDB;

CREATE TABLE reconcile_audit (
    id        BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    at        DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    goods_id  BIGINT       NOT NULL,
    kind      VARCHAR(40)  NOT NULL,
    action    VARCHAR(40)  NOT NULL,
    detail    VARCHAR(500) NOT NULL,
    KEY idx_audit_goods (goods_id)
) ENGINE = InnoDB;
