-- restore: make one goods' Redis keys what stock-stream's ledger fold says they are at a position (the fold is the
-- truth, Redis a cache of it: docs/invariants.md). Run when a command found the keys at another position than the
-- fold (Redis lost writes, or holds writes of an aborted transaction), and for a `restore` command.
-- KEYS as purchase.lua. ARGV[1] the marker to leave ('' = the goods has no live sale: every key is deleted and nothing
-- else is read), ARGV[2] startAt ms, ARGV[3] endAt ms, ARGV[4] perUserLimit, ARGV[5] status, ARGV[6] units left,
-- ARGV[7] opened, ARGV[8] expire-at ms of every key, then per live buyer: userId, quantity, requestId, paid ('1' when a
-- pay marked the purchase: the mark is written again, so no release can take a paid unit) (ARGV[9] on, 4 per buyer).
-- Returns {'RESTORED', buyers restored, stockAfter, 'NEW'}.
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
if ARGV[1] == '' then return {'RESTORED', '0', '0', 'NEW'} end
-- expiries are judged on Redis's own clock: restored keys live at least 5 s by it (open_sale.lua)
local now = redis.call('TIME')
local floor = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + 5000
local expireAt = ARGV[8] -- as given (exact), unless Redis's clock says it would already have passed
if tonumber(ARGV[8]) < floor then expireAt = string.format('%.0f', floor) end
redis.call('HSET', KEYS[1], 'startAt', ARGV[2], 'endAt', ARGV[3], 'perUserLimit', ARGV[4], 'status', ARGV[5],
  'opened', ARGV[7], 'expireAt', expireAt, 'at', ARGV[1])
redis.call('SET', KEYS[2], ARGV[6])
local n = 0
for i = 9, #ARGV, 4 do
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 2])
  if ARGV[i + 3] == '1' then redis.call('HSET', KEYS[5], ARGV[i + 2], 'restored') end
  n = n + 1
end
for i = 1, 5 do redis.call('PEXPIREAT', KEYS[i], expireAt) end
return {'RESTORED', tostring(n), ARGV[6], 'NEW'}
