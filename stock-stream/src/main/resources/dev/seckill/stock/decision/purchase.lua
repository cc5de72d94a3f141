-- purchase: decide one purchase request, atomically.
-- KEYS[1] sale hash, KEYS[2] stock, KEYS[3] buyers hash (userId -> qty), KEYS[4] holders hash (userId -> requestId),
-- KEYS[5] decisions hash ("req:" .. requestId -> "OUTCOME|reason|stockAfter|partition:offset"; operations are stored
-- under "op:" .. opId: a client's requestId can never name an operation's entry, whatever characters it holds)
-- ARGV[1] requestId, ARGV[2] userId, ARGV[3] quantity, ARGV[4] acceptedAt (epoch ms),
-- ARGV[5] "partition:offset" of the command, ARGV[6] invalid reason ('' when the command is valid),
-- ARGV[7] ttl (ms) for decisions of a goods that has no sale, ARGV[8] '1': a goods with no sale hash answers NOSALE and
-- stores nothing (stock-stream then asks its own fold: a live sale whose keys Redis lost is restored and the purchase
-- decided again; a goods it knows no sale of is called again with '0', which stores REJECTED no_sale). The sale hash's expireAt is the lifetime of every key of
-- the sale: the buyers and holders hashes get it here, when a SUCCESS creates or grows them.
-- Returns {outcome, reason, stockAfter, status}; status NEW (decided now), REPLAY (this same command was decided
-- before: emit the stored decision again), RETRY (the requestId was decided at another position: emit nothing),
-- NOSALE (no sale hash and ARGV[8] '1': nothing decided, nothing stored).
-- Order (docs/invariants.md, "The decision"): stored decision -> sale window by acceptedAt -> per-user limit -> live buyer -> stock -> deduct.
local rid, pos = ARGV[1], ARGV[5]
local dkey = 'req:' .. rid
local stored = redis.call('HGET', KEYS[5], dkey)
if stored then
  local outcome, reason, after, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  if at == pos then return {outcome, reason, after, 'REPLAY'} end
  return {outcome, reason, after, 'RETRY'}
end

local function decide(outcome, reason, after)
  redis.call('HSET', KEYS[5], dkey, outcome .. '|' .. reason .. '|' .. after .. '|' .. pos)
  return {outcome, reason, tostring(after), 'NEW'}
end

local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
local sale = redis.call('HMGET', KEYS[1], 'startAt', 'endAt', 'perUserLimit', 'status', 'expireAt')
if not sale[1] then
  if ARGV[8] == '1' then return {'NOSALE', '', tostring(stock), 'NOSALE'} end
  local result = decide('REJECTED', ARGV[6] ~= '' and 'invalid' or 'no_sale', stock)
  if redis.call('PTTL', KEYS[5]) == -1 then redis.call('PEXPIRE', KEYS[5], ARGV[7]) end
  return result
end
if ARGV[6] ~= '' then return decide('REJECTED', 'invalid', stock) end

local at = tonumber(ARGV[4])
if at < tonumber(sale[1]) then return decide('REJECTED', 'not_started', stock) end
if at >= tonumber(sale[2]) or sale[4] == 'closed' then return decide('REJECTED', 'ended', stock) end

local qty = tonumber(ARGV[3])
if qty > tonumber(sale[3]) then return decide('REJECTED', 'over_limit', stock) end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return decide('DUPLICATE', '', stock) end
if stock < qty then return decide('SOLD_OUT', '', stock) end

local after = redis.call('DECRBY', KEYS[2], qty)
redis.call('HSET', KEYS[3], ARGV[2], qty)
redis.call('HSET', KEYS[4], ARGV[2], rid)
if sale[5] then
  redis.call('PEXPIREAT', KEYS[3], sale[5])
  redis.call('PEXPIREAT', KEYS[4], sale[5])
end
return decide('SUCCESS', '', after)
