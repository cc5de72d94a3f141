-- transfer: move units out of or into one bucket of a bucketed goods (docs/invariants.md, "Stock buckets").
-- KEYS as purchase.lua (the bucket's keys). ARGV[1] the marker the caller expects, ARGV[2] this command's offset (the
-- new marker), ARGV[3] 'out' or 'in', ARGV[4] units: for 'out' the most the borrow wants, for 'in' the units arriving.
-- 'out' takes half the units left (at least 1, at most what is wanted) when there are any: {MOVED, k, stockAfter};
-- {NONE, 0, stock} when there are none or the bucket has no sale. 'take' (a drawn winner's units, at home) takes exactly
-- ARGV[4] units when there are that many, else {NONE, 0, stock}; {CLOSED, 0, stock} from a closed sale. 'in' adds the units: {MOVED, k, stockAfter}.
-- Status NEW, or STALE as purchase.lua.
local marker = redis.call('HGET', KEYS[1], 'at')
if (marker or '') ~= ARGV[1] then return {'STALE', marker or '', '0', 'STALE'} end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if not marker then return {'NONE', '0', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[1], 'at', ARGV[2])
local units = tonumber(ARGV[4])
if ARGV[3] == 'in' then
  return {'MOVED', tostring(units), tostring(redis.call('INCRBY', KEYS[2], units)), 'NEW'}
end
if ARGV[3] == 'take' then
  if redis.call('HGET', KEYS[1], 'status') == 'closed' then return {'CLOSED', '0', tostring(stock), 'NEW'} end
  if stock < units then return {'NONE', '0', tostring(stock), 'NEW'} end
  return {'MOVED', tostring(units), tostring(redis.call('DECRBY', KEYS[2], units)), 'NEW'}
end
if stock <= 0 then return {'NONE', '0', tostring(stock), 'NEW'} end
local k = math.min(math.floor((stock + 1) / 2), math.max(units, 1))
return {'MOVED', tostring(k), tostring(redis.call('DECRBY', KEYS[2], k)), 'NEW'}
