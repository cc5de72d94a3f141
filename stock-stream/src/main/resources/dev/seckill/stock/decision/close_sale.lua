-- close_sale: end a sale now; purchases decided after this command are REJECTED 'ended'.
-- KEYS as purchase.lua. ARGV[1] expected marker, ARGV[2] this command's offset.
-- Returns {result, 0, stockAfter, status}; result CLOSED or NOOP (no sale); status NEW, or STALE as purchase.lua.
local marker = redis.call('HGET', KEYS[1], 'at')
if (marker or '') ~= ARGV[1] then return {'STALE', marker or '', '0', 'STALE'} end
local stock = tonumber(redis.call('GET', KEYS[2]) or '0')
if not marker then return {'NOOP', '0', tostring(stock), 'NEW'} end
redis.call('HSET', KEYS[1], 'status', 'closed', 'at', ARGV[2])
return {'CLOSED', '0', tostring(stock), 'NEW'}
