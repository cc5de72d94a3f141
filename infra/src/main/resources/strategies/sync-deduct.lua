-- The write-up's deduct (section 3.2) with the dedupe first, as its own text recommends:
-- a buyer who already bought is answered before the stock is read.
-- KEYS[1]: the goods' stock (a string counter)   KEYS[2]: the set of buyers who bought it
-- ARGV[1]: the buyer                               ARGV[2]: the quantity
-- Returns 1 bought, -1 sold out, -2 already bought.
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
    return -2
end
local quantity = tonumber(ARGV[2])
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock < quantity then
    return -1
end
redis.call('DECRBY', KEYS[1], quantity)
redis.call('SADD', KEYS[2], ARGV[1])
return 1
