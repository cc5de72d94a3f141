-- purchase_batch: several purchases of one goods, decided in turn by purchase.lua inside one script.
-- The source Redis runs is "local function purchase(KEYS, ARGV) <purchase.lua> end" followed by this file
-- (StockScript.PURCHASE_BATCH), so every decision is exactly purchase.lua's, in the order given.
-- KEYS: the goods' keys, as for purchase.lua. ARGV: purchase.lua's 7 arguments for each purchase, one after another.
-- Returns one purchase.lua result per purchase, in order.
local width = 7
local results = {}
for i = 0, #ARGV / width - 1 do
  local args = {}
  for j = 1, width do args[j] = ARGV[i * width + j] end
  results[i + 1] = purchase(KEYS, args)
end
return results
