-- release: give back the units a buyer holds, only if that buyer really holds them; idempotent by opId.
-- KEYS as purchase.lua. ARGV[1] opId, ARGV[2] userId, ARGV[3] requestId ('' = whatever the buyer holds),
-- ARGV[4] "partition:offset", ARGV[5] ttl (ms) for the decisions hash of a goods that has no sale (else it has the sale's)
-- Returns {result, quantity, stockAfter, status}; result RELEASED, NOOP with quantity 0 when the buyer holds
-- nothing (for that requestId), or PAID with quantity 0 when the purchase held is marked paid (pay.lua: a paid
-- purchase is never released, docs/invariants.md invariant 7); status as purchase.lua.
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
if not held then return done('NOOP', 0, stock) end
local holder = redis.call('HGET', KEYS[4], ARGV[2])
if ARGV[3] ~= '' and holder ~= ARGV[3] then return done('NOOP', 0, stock) end
if holder and redis.call('HEXISTS', KEYS[5], 'paid:' .. holder) == 1 then return done('PAID', 0, stock) end

local after = redis.call('INCRBY', KEYS[2], held)
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
return done('RELEASED', held, after)
