-- Fixed window: the cost counted in window floor(now / W), kept in one hash
-- per identity beside the id of the window it belongs to. The key's name
-- carries no window id, so the script touches only KEYS[1] (Redis Cluster
-- routes the call by it) and a new window simply writes over the old one.
-- Rejected requests are counted too, as an INCR-based counter counts them.
-- KEYS[1]  "rl:{id}:fw", a hash {w = window id, n = cost counted in it}
-- ARGV     now_ms, cost, window_ms
-- Returns  {count, ms until the window ends}
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local key = KEYS[1]

local id = math.floor(now / window)
local stored = tonumber(redis.call('HGET', key, 'w'))
local count, fresh
if stored and stored >= id then
  -- The window the key is counting. A caller whose time is behind it (a
  -- late stamp, a clock stepped back) is counted there as well: an older
  -- window would start again from 0 and admit a whole limit more.
  id = stored
  count = redis.call('HINCRBY', key, 'n', cost)
else
  redis.call('HSET', key, 'w', int(id), 'n', cost)
  count, fresh = cost, true
end

-- The expiry: W from the window's first request. The key names its window,
-- so living into the next one is harmless. Testing "no expiry" rather than
-- "first request" also heals a key that lost its expiry (E10).
if fresh or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, int(window))
end

-- limiters.go compares the count with the limit; the second value is the
-- retry delay of a rejection, the time left until the window ends.
return {count, (id + 1) * window - now}
