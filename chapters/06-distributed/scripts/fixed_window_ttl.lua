-- Fixed window opened by the identity's first request: one counter whose
-- expiry, set whenever it has none, closes the window W later. Redis
-- expiry does the timing, so the script is loaded without the clock and
-- never calls TIME: now is only reported back, the caller's time or -1.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms, cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])

local count = redis.call('INCRBY', KEYS[1], cost)
-- "No expiry", not "count == cost": a counter that ever lost its expiry
-- would otherwise only grow and reject this identity forever (E10).
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], int(window))
  ttl = window
end

local remaining = math.max(0, limit - count)
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, ttl, now}
