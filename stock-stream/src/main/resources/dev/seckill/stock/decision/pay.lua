-- pay: mark a buyer's live purchase paid, in the goods' serial order. Sent by the order-writer only, after it accepted
-- a payment for the order (docs/invariants.md, invariant 7): from then on release.lua gives nothing back for that
-- purchase; a pay that finds the purchase no longer held (released, or the sale's keys expired) is refused, and the
-- writer refuses the payment.
-- KEYS as purchase.lua. ARGV[1] expected marker, ARGV[2] this command's offset, ARGV[3] opId, ARGV[4] userId,
-- ARGV[5] requestId of the purchase.
-- The mark is the paid-marks hash's entry requestId -> opId: a hash of its own, so no client value can plant or fake it.
-- Returns {result, quantity, stockAfter, status}; result PAID (quantity: the units the purchase holds) or REFUSED
-- (quantity 0); status NEW, or STALE as purchase.lua.
local sale = redis.call('HMGET', KEYS[1], 'at', 'expireAt')
if (sale[1] or '') ~= ARGV[1] then return {'STALE', sale[1] or '', '0', 'STALE'} end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if not sale[1] then return {'REFUSED', '0', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[1], 'at', ARGV[2])
local held = redis.call('HGET', KEYS[3], ARGV[4])
if not held or redis.call('HGET', KEYS[4], ARGV[4]) ~= ARGV[5] then return {'REFUSED', '0', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[5], ARGV[5], ARGV[3])
if sale[2] then redis.call('PEXPIREAT', KEYS[5], sale[2]) end
return {'PAID', held, tostring(stock), 'NEW'}
