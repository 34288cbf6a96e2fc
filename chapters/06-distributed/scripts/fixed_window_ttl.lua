-- Fixed window opened by the first request: one counter per identity whose
-- expiry, set when it has none, closes the window W after it opened.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms (only reported back: the window is timed by Redis expiry), cost,
--          window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])

local count = redis.call('INCRBY', KEYS[1], cost)
-- PTTL < 0, not count == cost: the repair also covers a key that lost its
-- expiry earlier, which would otherwise block this identity forever.
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], window)
  ttl = window
end

local remaining = limit - count
if remaining < 0 then remaining = 0 end
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, ttl, now}
