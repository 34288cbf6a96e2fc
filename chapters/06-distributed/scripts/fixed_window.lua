-- Fixed window: the cost counted in window floor(now / W), in one hash per
-- identity whose one field is named for the window it counts. The key's
-- name carries no window id, so the script touches only KEYS[1] (Redis
-- Cluster routes the call by it), and the field's name says which window the
-- count belongs to without a read of its own: while a window lasts, one
-- HINCRBY of its field is the whole count. Rejected requests are counted
-- too, as an INCR-based counter counts them.
-- KEYS[1]  "rl:{id}:fw", a hash {<window id> = cost counted in it}
-- ARGV     now_ms, cost, window_ms
-- Returns  {count, ms until the window ends}
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local key = KEYS[1]

local id = math.floor(now / window)
local count = redis.call('HINCRBY', key, int(id), cost)
local fresh = false
if count == cost then
  -- The field is new (counts only grow, by at least 1): the first request
  -- of window id, or a caller whose time is behind the window the key is
  -- counting. The key holds one other field at most; look at it.
  local newest = id
  local fields = redis.call('HKEYS', key)
  for _, f in ipairs(fields) do
    newest = math.max(newest, tonumber(f))
  end
  if newest > id then
    -- Late (a stale stamp, a clock stepped back): counted in the window the
    -- key is counting, as an older window would start again from 0 and
    -- admit a whole limit more.
    redis.call('HDEL', key, int(id))
    id = newest
    count = redis.call('HINCRBY', key, int(id), cost)
  else
    -- A new window: the older count is worthless.
    for _, f in ipairs(fields) do
      if tonumber(f) < id then redis.call('HDEL', key, f) end
    end
    fresh = true
  end
end

-- The expiry: W from the window's first request. The field names its
-- window, so living into the next one is harmless. Testing "no expiry"
-- rather than "first request" also heals a key that lost its expiry (E10).
if fresh or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, int(window))
end

-- limiters.go compares the count with the limit; the second value is the
-- retry delay of a rejection, the time left until the window ends.
return {count, (id + 1) * window - now}
