-- open_sale: load a sale's stock and window. Refuses when keys of an earlier sale of this goods are still there
-- (the write-up's warning about residual data) unless forced; idempotent by opId.
-- KEYS as purchase.lua. ARGV[1] opId, ARGV[2] stock, ARGV[3] startAt ms, ARGV[4] endAt ms, ARGV[5] perUserLimit,
-- ARGV[6] force ('1' or '0'), ARGV[7] expire-at ms for every key (KeyLifetime: the later of endAt and now, plus the
-- grace; kept in the sale hash so purchase.lua gives the buyers/holders hashes the same lifetime when it creates them),
-- ARGV[8] "partition:offset"
-- Returns {result, delta, stockAfter, status}; result OPENED (delta = change of the units left, which is the
-- ledger's OPENED quantity) or REFUSED (delta 0).
local key, pos = 'op:' .. ARGV[1], ARGV[8]
local stored = redis.call('HGET', KEYS[5], key)
if stored then
  local result, delta, after, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  if at == pos then return {result, delta, after, 'REPLAY'} end
  return {result, delta, after, 'RETRY'}
end

local function done(result, delta, after)
  redis.call('HSET', KEYS[5], key, result .. '|' .. delta .. '|' .. after .. '|' .. pos)
  return {result, tostring(delta), tostring(after), 'NEW'}
end

local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local residual = redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
if residual > 0 and ARGV[6] ~= '1' then return done('REFUSED', 0, previous) end
if residual > 0 then redis.call('DEL', KEYS[1], KEYS[3], KEYS[4]) end

local stock = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'startAt', ARGV[3], 'endAt', ARGV[4], 'perUserLimit', ARGV[5], 'status', 'open',
  'opened', ARGV[2], 'openOp', ARGV[1], 'expireAt', ARGV[7])
redis.call('SET', KEYS[2], stock)
-- buyers and holders do not exist yet (a forced open deleted them): purchase.lua sets their expiry when it creates them
for i = 1, 2 do redis.call('PEXPIREAT', KEYS[i], ARGV[7]) end
local result = done('OPENED', stock - previous, stock)
redis.call('PEXPIREAT', KEYS[5], ARGV[7])
return result
