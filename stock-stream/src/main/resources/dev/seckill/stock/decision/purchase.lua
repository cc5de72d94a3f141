-- purchase: decide one purchase request, atomically, against the goods' state as of the position the caller expects.
-- KEYS[1] sale hash (its field 'at' is the marker: the offset of the last command applied to these keys), KEYS[2]
-- stock, KEYS[3] buyers hash (userId -> qty), KEYS[4] holders hash (userId -> requestId), KEYS[5] paid marks (requestId
-- -> opId of the pay that marked it).
-- ARGV[1] the marker the caller expects ('' = the goods has no keys), ARGV[2] this command's offset (the new marker),
-- ARGV[3] requestId, ARGV[4] userId, ARGV[5] quantity, ARGV[6] acceptedAt (epoch ms), ARGV[7] invalid reason ('' when
-- the command is valid).
-- Returns {outcome, reason, stockAfter, status}: status NEW (decided now), or STALE (the keys are not at the expected
-- position: Redis lost writes, or holds writes the stream's fold does not; nothing was read or written, and the second
-- field is the marker found). The stream keeps every decision and dedupes ids itself (docs/invariants.md, "The fold is
-- the truth"); the script only applies the rules to the state.
-- Order (docs/invariants.md, "The decision"): sale window by acceptedAt -> per-user limit -> live buyer -> stock -> deduct.
local sale = redis.call('HMGET', KEYS[1], 'at', 'startAt', 'endAt', 'perUserLimit', 'status', 'expireAt')
if (sale[1] or '') ~= ARGV[1] then return {'STALE', sale[1] or '', '0', 'STALE'} end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if not sale[2] then return {'REJECTED', ARGV[7] ~= '' and 'invalid' or 'no_sale', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[1], 'at', ARGV[2])
if ARGV[7] ~= '' then return {'REJECTED', 'invalid', tostring(stock), 'NEW'} end

local at = tonumber(ARGV[6])
if at < tonumber(sale[2]) then return {'REJECTED', 'not_started', tostring(stock), 'NEW'} end
if at >= tonumber(sale[3]) or sale[5] == 'closed' then return {'REJECTED', 'ended', tostring(stock), 'NEW'} end

local qty = tonumber(ARGV[5])
if qty > tonumber(sale[4]) then return {'REJECTED', 'over_limit', tostring(stock), 'NEW'} end
if redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 then return {'DUPLICATE', '', tostring(stock), 'NEW'} end
if stock < qty then return {'SOLD_OUT', '', tostring(stock), 'NEW'} end

local after = redis.call('DECRBY', KEYS[2], qty)
redis.call('HSET', KEYS[3], ARGV[4], qty)
redis.call('HSET', KEYS[4], ARGV[4], ARGV[3])
if sale[6] then
  redis.call('PEXPIREAT', KEYS[3], sale[6])
  redis.call('PEXPIREAT', KEYS[4], sale[6])
end
return {'SUCCESS', '', tostring(after), 'NEW'}
