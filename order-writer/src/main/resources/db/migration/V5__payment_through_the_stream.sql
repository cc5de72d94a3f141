-- Payments are decided in the goods' serial order (issue 10, invariant 7): an accepted payment moves its order
-- CREATED -> PAYING (the sweeper cancels only CREATED orders, so the two still exclude each other) and is forwarded to
-- stock-stream as a `pay` command; the stream's PAID ledger entry makes the order PAID, its PAYMENT_REFUSED (the units
-- were released first) cancels it. forwarded_at is the outbox mark of that command (NULL = still to send).
ALTER TABLE payment
    ADD COLUMN paid_at      DATETIME(3) NULL,
    ADD COLUMN forwarded_at DATETIME(3) NULL,
    ADD KEY idx_payment_outbox (status, forwarded_at);
