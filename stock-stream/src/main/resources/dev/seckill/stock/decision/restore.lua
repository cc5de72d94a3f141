-- restore: rebuild one goods' Redis state (sale window, units left, live buyers) from the ledger fold that
-- stock-stream keeps; idempotent by opId. Stored decisions are kept, and every live buyer's requestId gets a
-- stored SUCCESS if it lost its own, so an upstream retry after a restore still emits nothing.
-- KEYS as purchase.lua. ARGV[1] opId, ARGV[2] "partition:offset", ARGV[3] startAt ms, ARGV[4] endAt ms,
-- ARGV[5] perUserLimit, ARGV[6] status, ARGV[7] units left, ARGV[8] opened, ARGV[9] expire-at ms (KeyLifetime, counted from now),
-- then per live buyer: userId, quantity, requestId, stockAfter of that purchase, paid ('1' when the purchase was
-- marked paid by pay.lua: the mark is written again, so no release can take a paid unit after a restore) (ARGV[10] on, 5 per buyer)
-- Returns {result, buyers restored, stockAfter, status}.
local key, pos = 'op:' .. ARGV[1], ARGV[2]
local stored = redis.call('HGET', KEYS[5], key)
if stored then
  local result, n, after, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  if at == pos then return {result, n, after, 'REPLAY'} end
  return {result, n, after, 'RETRY'}
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'startAt', ARGV[3], 'endAt', ARGV[4], 'perUserLimit', ARGV[5], 'status', ARGV[6],
  'opened', ARGV[8], 'restoredBy', ARGV[1], 'expireAt', ARGV[9])
redis.call('SET', KEYS[2], ARGV[7])
local n = 0
for i = 10, #ARGV, 5 do
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 2])
  redis.call('HSETNX', KEYS[5], 'req:' .. ARGV[i + 2], 'SUCCESS||' .. ARGV[i + 3] .. '|restored')
  if ARGV[i + 4] == '1' then redis.call('HSETNX', KEYS[5], 'paid:' .. ARGV[i + 2], 'restored') end
  n = n + 1
end
for i = 1, 5 do redis.call('PEXPIREAT', KEYS[i], ARGV[9]) end
redis.call('HSET', KEYS[5], key, 'RESTORED|' .. n .. '|' .. ARGV[7] .. '|' .. pos)
return {'RESTORED', tostring(n), ARGV[7], 'NEW'}
