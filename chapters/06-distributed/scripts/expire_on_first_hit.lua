-- THE TRAP of E10, kept only to be shown failing: fixed_window_ttl.lua's
-- counter, but the expiry is set only by the request that created the key.
-- Once the key exists without an expiry, nothing here puts one back: the
-- count only grows and the identity stays rejected forever.
-- KEYS[1]  "rl:{id}:fwt"
-- ARGV     now_ms (unused), cost, window_ms
-- Returns  {count, ms until the key expires (-1: never)}
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {count, redis.call('PTTL', KEYS[1])}
