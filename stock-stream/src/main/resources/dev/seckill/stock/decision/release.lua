-- release: give back the units a buyer holds, only if that buyer really holds them.
-- KEYS as purchase.lua. ARGV[1] expected marker, ARGV[2] this command's offset, ARGV[3] userId, ARGV[4] requestId
-- ('' = whatever the buyer holds).
-- Returns {result, quantity, stockAfter, status}; result RELEASED, NOOP with quantity 0 when the buyer holds nothing
-- (for that requestId), or PAID with quantity 0 when the purchase held is marked paid (pay.lua: a paid purchase is
-- never released, docs/invariants.md invariant 7); status NEW, or STALE as purchase.lua.
local marker = redis.call('HGET', KEYS[1], 'at')
if (marker or '') ~= ARGV[1] then return {'STALE', marker or '', '0', 'STALE'} end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if not marker then return {'NOOP', '0', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[1], 'at', ARGV[2])
local held = redis.call('HGET', KEYS[3], ARGV[3])
if not held then return {'NOOP', '0', tostring(stock), 'NEW'} end
local holder = redis.call('HGET', KEYS[4], ARGV[3])
if ARGV[4] ~= '' and holder ~= ARGV[4] then return {'NOOP', '0', tostring(stock), 'NEW'} end
if holder and redis.call('HEXISTS', KEYS[5], holder) == 1 then return {'PAID', '0', tostring(stock), 'NEW'} end

local after = redis.call('INCRBY', KEYS[2], held)
redis.call('HDEL', KEYS[3], ARGV[3])
redis.call('HDEL', KEYS[4], ARGV[3])
return {'RELEASED', held, tostring(after), 'NEW'}
