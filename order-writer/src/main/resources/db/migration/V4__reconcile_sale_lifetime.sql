-- When a goods' sale keys expire in Redis (KeyLifetime), from the ledger's OPENED/RESTORED entries: past it the goods
-- has no Redis keys and that is the sale's end, which the reconciler reports as ENDED instead of restoring it.
ALTER TABLE reconcile_fold ADD COLUMN keys_expire_at_ms BIGINT NULL; -- epoch ms, as KeyLifetime computes it
