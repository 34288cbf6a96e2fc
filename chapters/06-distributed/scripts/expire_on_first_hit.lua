-- THE TRAP (E10), kept only to be demonstrated: the same counter as
-- fixed_window_ttl.lua, but the expiry is set only when this request created
-- the key. If the key ever exists without an expiry, nothing here repairs it:
-- the count only grows and the identity stays rejected forever.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms, cost, window_ms, limit
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
if count == cost then
  redis.call('PEXPIRE', KEYS[1], window)
end

local remaining = limit - count
if remaining < 0 then remaining = 0 end
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, redis.call('PTTL', KEYS[1]), now}
