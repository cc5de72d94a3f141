-- An operation's opId means one thing per goods, as the stream keeps it (goods:o:opId): two goods opened, released or
-- closed under the same opId are two operations. The claims were unique by op_id alone, so the second goods' entry
-- was taken for a redelivery of the first and never applied (its sale's stock stayed as before in the DB).
ALTER TABLE stock_ledger DROP INDEX uk_ledger_op, ADD UNIQUE KEY uk_ledger_op (goods_id, op_id);
ALTER TABLE order_anomaly DROP INDEX uk_anomaly_op, ADD UNIQUE KEY uk_anomaly_op (goods_id, op_id, kind);
ALTER TABLE early_release DROP PRIMARY KEY, ADD PRIMARY KEY (goods_id, op_id);
