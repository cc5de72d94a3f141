-- Orders are written from the goods' ledger (DEDUCTED entries), in the stream's serial order with the goods' releases,
-- payments and opens. A purchase is (goods, requestId) within one sale: sale_offset is the offset of the open_sale of
-- the sale it was decided in (-1: not known, orders written before it was kept). A requestId the stream forgot (a week
-- after its sale's keys expired) and a buyer reused in a later sale is a new purchase with its own order, claimed in the
-- ledger as deduct:<goodsId>:<requestId>@<open offset> (longer than 100 characters at the extremes of both ids).
ALTER TABLE purchase_order
    ADD COLUMN sale_offset BIGINT NOT NULL DEFAULT -1,
    DROP INDEX uk_order_goods_request,
    ADD UNIQUE KEY uk_order_goods_request (goods_id, request_id, sale_offset);

ALTER TABLE stock_ledger MODIFY op_id VARCHAR(128) NOT NULL;
