-- THE TRAP of E10, kept only to be shown failing: fixed_window_ttl.lua's
-- counter, but the expiry is set only by the request that created the key.
-- Once the key exists without an expiry, nothing here puts one back: the
-- count only grows and the identity stays rejected forever.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms, cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])

local count = redis.call('INCRBY', KEYS[1], cost)
if count == cost then
  redis.call('PEXPIRE', KEYS[1], int(window))
end

local remaining = math.max(0, limit - count)
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, redis.call('PTTL', KEYS[1]), now}
