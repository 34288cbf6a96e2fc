-- Token bucket: C tokens at first sight, refilled at R per second up to C;
-- a request of cost k is allowed iff tokens >= k, then spends k.
-- Tokens are fractional: they are stored as a decimal string (Redis writes a
-- Lua number with full precision) and compared with a 1e-9 tolerance so that
-- an exact tie allows, as exact arithmetic would.
-- KEYS[1]  "rl:{id}:tb", a hash {tokens, ts}
-- ARGV     now_ms (negative: read Redis TIME), cost, capacity, rate_per_s
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local C = tonumber(ARGV[3])
local R = tonumber(ARGV[4])
local key = KEYS[1]
local eps = 1e-9
-- After this long without requests the bucket is full again, which is the same
-- as having no key at all.
local ttl = math.ceil(C * 1000 / R)

-- ts is the latest time the key has seen. A caller whose time is behind it
-- is decided then, as in chapter 04 (no refill), and its retry delay counts
-- from its own time.
local state = redis.call('HMGET', key, 'tokens', 'ts')
local tokens, last = C, now
if state[1] then
  tokens = tonumber(state[1])
  last = tonumber(state[2])
end
if now > last then
  tokens = math.min(C, tokens + (now - last) * R / 1000)
  last = now
end

if tokens + eps >= cost then
  tokens = tokens - cost
  if tokens < 0 then tokens = 0 end
  redis.call('HSET', key, 'tokens', tokens, 'ts', last)
  redis.call('PEXPIRE', key, ttl + last - now)
  return {1, math.floor(tokens + eps), 0, now}
end

-- Rejected: store the refilled state too, so that the key's time moves on,
-- and make sure the key can still expire.
redis.call('HSET', key, 'tokens', tokens, 'ts', last)
if redis.call('PTTL', key) == -1 then
  redis.call('PEXPIRE', key, ttl + last - now)
end
local retry = math.ceil((cost - tokens) * 1000 / R - eps)
if retry < 1 then retry = 1 end
return {0, math.floor(tokens + eps), retry + last - now, now}
