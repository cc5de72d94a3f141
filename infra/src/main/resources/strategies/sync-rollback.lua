-- The write-up's rollback (section 4.1), in the stricter form it asks for: the stock comes back only if the buyer
-- is still in the set, so a rollback run twice, or for a buyer the deduct refused, gives nothing back.
-- KEYS[1]: the goods' stock   KEYS[2]: the set of buyers   ARGV[1]: the buyer   ARGV[2]: the quantity
-- Returns 1 rolled back, 0 nothing to roll back.
if redis.call('SREM', KEYS[2], ARGV[1]) == 1 then
    redis.call('INCRBY', KEYS[1], ARGV[2])
    return 1
end
return 0
