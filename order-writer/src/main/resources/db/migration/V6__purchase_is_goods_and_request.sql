-- A purchase is the pair (goodsId, requestId) in every store (issue 25): two goods may each have a purchase with the
-- same requestId, and each SUCCESS is one order. Works on MySQL 8 and MariaDB 10.11.
ALTER TABLE purchase_order
    DROP INDEX uk_order_request,
    ADD UNIQUE KEY uk_order_goods_request (goods_id, request_id);

-- DEDUCTED rows written before keep their claim under the new op_id deduct:<goodsId>:<requestId>, the one the writer now
-- computes, so an outcome redelivered after the upgrade is still a no-op. In two steps, so that no row takes an op_id
-- another old row still holds (a requestId may itself contain "<goodsId>:").
UPDATE stock_ledger SET op_id = CONCAT('deduct-v6:', goods_id, ':', request_id)
    WHERE type = 'DEDUCTED' AND request_id IS NOT NULL AND op_id = CONCAT('deduct:', request_id);
UPDATE stock_ledger SET op_id = CONCAT('deduct:', SUBSTRING(op_id, 11))
    WHERE type = 'DEDUCTED' AND op_id LIKE 'deduct-v6:%';

-- The reconciler's audit row of a restore is written before the command is sent (its outbox): op_id names the command,
-- sent_at is NULL until the send was acknowledged, so a restore the process died before sending is sent by the next
-- cycle under the same op_id (stock-stream applies an op_id once).
ALTER TABLE reconcile_audit
    ADD COLUMN op_id   VARCHAR(100) NULL,
    ADD COLUMN sent_at DATETIME(3)  NULL,
    ADD KEY idx_audit_outbox (sent_at, op_id);

-- The command offset of the goods' latest OPENED entry: an order the reconciler writes for a live buyer of that sale
-- gets it as its source_offset (its purchase came after it), so the next sale's OPENED ends it as the writer's own.
ALTER TABLE reconcile_fold ADD COLUMN opened_command_offset BIGINT NULL;
