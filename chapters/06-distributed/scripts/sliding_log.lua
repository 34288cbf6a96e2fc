-- Sliding log: a sorted set of the allowed requests' times (score = ms).
-- A request of age >= W is outside the window; allow iff count + cost <= L.
-- One more member, "t", holds the latest time the key has seen as its score.
-- KEYS[1]  "rl:{id}:log"
-- ARGV     now_ms (negative: read Redis TIME), cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local key = KEYS[1]

-- Time never runs backwards for a key: a caller whose time is behind the
-- latest one seen is decided at that time, as in chapter 03, and its retry
-- delay counts from its own time. (Deciding at the earlier time would also
-- break the members' uniqueness below.)
local caller = now
local last = tonumber(redis.call('ZSCORE', key, 't'))
if last and last > now then now = last end

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if last and last > now - window then
  count = count - 1 -- the "t" member survived the trim
end
redis.call('ZADD', key, now, 't')

if count + cost <= limit then
  -- Members must be unique or two requests in one millisecond would collapse
  -- into one entry. Within one millisecond the count only grows, so
  -- "now:position" never repeats.
  for i = 1, cost do
    redis.call('ZADD', key, now, now .. ':' .. (count + i))
  end
  -- The newest entry leaves the window W from now; then the key is empty.
  redis.call('PEXPIRE', key, window + now - caller)
  return {1, limit - count - cost, 0, caller}
end

-- Rejected: wait until enough of the oldest entries have aged out. ("t" sorts
-- after every entry: its score is the largest and letters sort after digits.)
local need = count + cost - limit
local entry = redis.call('ZRANGE', key, need - 1, need - 1, 'WITHSCORES')
local retry = tonumber(entry[2]) + window - caller
if retry < 1 then retry = 1 end
if redis.call('PTTL', key) == -1 then
  redis.call('PEXPIRE', key, window + now - caller)
end
local remaining = limit - count
if remaining < 0 then remaining = 0 end
return {0, remaining, retry, caller}
