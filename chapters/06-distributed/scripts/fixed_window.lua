-- Fixed window: one counter per (identity, window id), window id = floor(now / W).
-- KEYS[1]  key prefix "rl:{id}:fw"; the counter is KEYS[1]..":"..windowid, which
--          shares the hash tag and so the cluster slot.
-- ARGV     now_ms (negative: read Redis TIME), cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  -- One clock for every app node: the server's, so nodes never disagree on the window.
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])

local id = math.floor(now / window)
local key = KEYS[1] .. ':' .. id
local closes = (id + 1) * window - now -- ms until this window ends, >= 1

-- Rejected requests are counted too: that is what INCR does.
local count = redis.call('INCRBY', key, cost)
-- Test "no expiry", not "first hit": a key that ever lost its PEXPIRE
-- (a crash between two commands, a PERSIST, an old client) is healed here.
if redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, closes)
end

local remaining = limit - count
if remaining < 0 then remaining = 0 end
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, closes, now}
