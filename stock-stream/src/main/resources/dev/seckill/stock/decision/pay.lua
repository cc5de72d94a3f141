-- pay: mark a buyer's live purchase paid, in the goods' serial order; idempotent by opId. Sent by the order-writer
-- only, after it accepted a payment for the order (docs/invariants.md, invariant 7): from then on release.lua gives
-- nothing back for that purchase; a pay that finds the purchase no longer held (released, or the sale's keys expired)
-- is refused, and the writer refuses the payment.
-- KEYS as purchase.lua. ARGV[1] opId, ARGV[2] userId, ARGV[3] requestId of the purchase, ARGV[4] "partition:offset",
-- ARGV[5] ttl (ms) for the decisions hash of a goods that has no sale (else it has the sale's).
-- The mark is stored in the decisions hash under "paid:" .. requestId (value: the opId): a namespace of its own, apart
-- from "req:" (client requestIds) and "op:" (operations), so no client value can plant or fake it.
-- Returns {result, quantity, stockAfter, status}; result PAID (quantity: the units the purchase holds) or REFUSED
-- (quantity 0); status as purchase.lua.
local key, pos = 'op:' .. ARGV[1], ARGV[4]
local stored = redis.call('HGET', KEYS[5], key)
if stored then
  local result, qty, after, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  if at == pos then return {result, qty, after, 'REPLAY'} end
  return {result, qty, after, 'RETRY'}
end

local function done(result, qty, after)
  redis.call('HSET', KEYS[5], key, result .. '|' .. qty .. '|' .. after .. '|' .. pos)
  if redis.call('PTTL', KEYS[5]) == -1 then redis.call('PEXPIRE', KEYS[5], ARGV[5]) end
  return {result, tostring(qty), tostring(after), 'NEW'}
end

local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
local held = redis.call('HGET', KEYS[3], ARGV[2])
if not held or redis.call('HGET', KEYS[4], ARGV[2]) ~= ARGV[3] then return done('REFUSED', 0, stock) end
redis.call('HSET', KEYS[5], 'paid:' .. ARGV[3], ARGV[1])
return done('PAID', held, stock)
