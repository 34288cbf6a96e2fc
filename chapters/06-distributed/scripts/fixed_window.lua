-- Fixed window: one hash per identity holding the window id and its count,
-- window id = floor(now / W). Every key the script touches is KEYS[1], so it
-- runs on a cluster (the caller names the key) and under Redis 7's checks.
-- KEYS[1]  "rl:{id}:fw", a hash {w = window id, n = cost counted in it}
-- ARGV     now_ms (negative: read Redis TIME), cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  -- One clock for every app node: the server's, so nodes never disagree on the window.
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local key = KEYS[1]

local id = math.floor(now / window)
local stored = tonumber(redis.call('HGET', key, 'w'))
local count, fresh
-- Rejected requests are counted too: that is what INCR does.
if stored and stored >= id then
  -- The window the key is counting. A caller whose time is behind the key's
  -- window (a late timestamp, a clock stepped back) is counted there too:
  -- going back to an older window would restart its count at 0.
  id = stored
  count = redis.call('HINCRBY', key, 'n', cost)
else
  -- A new window: the old count says nothing about it.
  redis.call('HSET', key, 'w', id, 'n', cost)
  count, fresh = cost, true
end
local closes = (id + 1) * window - now -- ms until this window ends, >= 1

-- The key names its window, so it need not vanish the moment the window
-- closes: an expiry of W from the window's first request frees it within
-- one more window, and until then the next window simply starts over it.
-- Test "no expiry", not "first hit": a key that ever lost its PEXPIRE (a
-- crash between two commands, a PERSIST, an old client) is healed here. A
-- new window always gets its own expiry, whatever the old one had left.
if fresh or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, window)
end

local remaining = limit - count
if remaining < 0 then remaining = 0 end
if count <= limit then
  return {1, remaining, 0, now}
end
return {0, remaining, closes, now}
