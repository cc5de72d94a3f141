-- close_sale: end a sale now; purchases decided after this command are REJECTED 'ended'. Idempotent by opId.
-- KEYS as purchase.lua. ARGV[1] opId, ARGV[2] "partition:offset", ARGV[3] ttl (ms) for the decisions hash of a goods
-- that has no sale (else it has the sale's)
-- Returns {result, 0, stockAfter, status}; result CLOSED or NOOP (no sale).
local key, pos = 'op:' .. ARGV[1], ARGV[2]
local stored = redis.call('HGET', KEYS[5], key)
if stored then
  local result, delta, after, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  if at == pos then return {result, delta, after, 'REPLAY'} end
  return {result, delta, after, 'RETRY'}
end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
local result = 'NOOP'
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'status', 'closed')
  result = 'CLOSED'
end
redis.call('HSET', KEYS[5], key, result .. '|0|' .. stock .. '|' .. pos)
if redis.call('PTTL', KEYS[5]) == -1 then redis.call('PEXPIRE', KEYS[5], ARGV[3]) end
return {result, '0', tostring(stock), 'NEW'}
