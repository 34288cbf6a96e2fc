-- Token bucket: a bucket of C tokens, full at first sight and refilled at R
-- per second up to C. A request of cost k is allowed iff the bucket holds k
-- tokens, and then takes them.
--
-- Tokens are fractional and are stored as text with 17 significant digits,
-- which gives back the same double. The comparison allows 1e-9 of slack so
-- that an exact tie (at R = 3, one token is back after 1000/3 ms) allows,
-- as exact arithmetic would.
-- KEYS[1]  "rl:{id}:tb", a hash {tokens, ts = the latest time the key has seen}
-- ARGV     now_ms, cost, capacity, rate_per_s, ttl_ms
-- Returns  {allowed 0|1, remaining, retry_after_ms}
local cost = tonumber(ARGV[2])
local C = tonumber(ARGV[3])
local R = tonumber(ARGV[4])
local key = KEYS[1]
local eps = 1e-9
-- The state's lifetime, ceil(C * 1000 / R) ms: that long after its latest
-- time the bucket is full again, exactly what a missing key means. Go
-- works it out once per limiter and sends the digits, which saves every
-- decision a string.format.
local ttl = ARGV[5]

local tokens, last = C, now
local state = redis.call('HMGET', key, 'tokens', 'ts')
if state[1] then
  -- The stored tokens become a number at their first arithmetic; the time
  -- is compared, so it needs tonumber.
  tokens, last = state[1], tonumber(state[2])
end
-- Time never runs backwards for a key: a caller behind the key's latest
-- time is decided then (no refill), and its retry delay counts from its own.
if now > last then
  tokens = tokens + (now - last) * R / 1000
  if tokens > C then tokens = C end
  last = now
end
local late = last - now

local allowed = tokens + eps >= cost
if allowed then
  tokens = tokens - cost
  if tokens < 0 then tokens = 0 end
end
-- A rejection writes too: the refill is kept and the key's time moves on.
-- A whole count of tokens (a bucket that has been full) is written with
-- %d, the same digits as %.17g for far less work.
local format = '%.17g'
if tokens % 1 == 0 then format = '%d' end
redis.call('HSET', key, 'tokens', string.format(format, tokens), 'ts', int(last))
if allowed or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, ttl)
end

local remaining = math.floor(tokens + eps)
if allowed then
  return {1, remaining, 0}
end
local wait = math.ceil((cost - tokens) * 1000 / R - eps)
if wait < 1 then wait = 1 end
return {0, remaining, wait + late}
