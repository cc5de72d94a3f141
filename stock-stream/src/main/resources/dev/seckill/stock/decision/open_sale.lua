-- open_sale: load a sale's stock and window. Refuses when keys of an earlier sale of this goods are still there
-- (the write-up's warning about residual data) unless forced.
-- KEYS as purchase.lua. ARGV[1] expected marker, ARGV[2] this command's offset, ARGV[3] stock, ARGV[4] startAt ms,
-- ARGV[5] endAt ms, ARGV[6] perUserLimit, ARGV[7] force ('1' or '0'), ARGV[8] expire-at ms for every key (KeyLifetime:
-- the later of endAt and now, plus the grace; kept in the sale hash so purchase.lua gives the buyers/holders hashes the
-- same lifetime when it creates them).
-- Returns {result, 0, stockAfter, status}; result OPENED or REFUSED; status NEW, or STALE as purchase.lua.
local marker = redis.call('HGET', KEYS[1], 'at')
if (marker or '') ~= ARGV[1] then return {'STALE', marker or '', '0', 'STALE'} end
if marker and ARGV[7] ~= '1' then
  redis.call('HSET', KEYS[1], 'at', ARGV[2])
  return {'REFUSED', '0', redis.call('GET', KEYS[2]) or '0', 'NEW'}
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
-- expiries are judged on Redis's own clock: keys written now live at least 5 s by it, so a stream whose clock
-- is behind Redis's never writes keys that vanish as they are written (and rebuilds them for ever): the calls that
-- follow a rebuild find them; later ones rebuild again if they are gone (the skew is reported: RedisClockWatch)
local now = redis.call('TIME')
local floor = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + 5000
local expireAt = ARGV[8] -- as given (exact), unless Redis's clock says it would already have passed
if tonumber(ARGV[8]) < floor then expireAt = string.format('%.0f', floor) end
redis.call('HSET', KEYS[1], 'startAt', ARGV[4], 'endAt', ARGV[5], 'perUserLimit', ARGV[6], 'status', 'open',
  'opened', ARGV[3], 'expireAt', expireAt, 'at', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
-- buyers, holders and paid marks do not exist yet: purchase.lua and pay.lua set their expiry when they create them
for i = 1, 2 do redis.call('PEXPIREAT', KEYS[i], expireAt) end
return {'OPENED', '0', ARGV[3], 'NEW'}
