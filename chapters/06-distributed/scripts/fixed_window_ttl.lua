-- Fixed window opened by the identity's first request: one counter whose
-- expiry, set whenever it has none, closes the window W later. Redis
-- expiry does the timing, so the script is loaded without the clock and
-- never calls TIME. It returns the count and the time left in the window;
-- limiters.go compares the count with the limit (allowed iff count <= L,
-- remaining L - count), so the limit is not even sent.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms (unused but checked by the prelude), cost, window_ms
-- Returns  {count, ms until the window ends}
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
-- "No expiry", not "count == cost": a counter that ever lost its expiry
-- would otherwise only grow and reject this identity forever (E10).
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {count, ttl}
