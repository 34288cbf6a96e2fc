-- Hand one node up to `batch` permits of the current window, atomically.
--
-- KEYS[1]  the limit's key, e.g. rl:{api-key-42}:prefetch (a hash)
-- ARGV[1]  now_ms:    the time in ms, or -1 for the server's clock (prelude)
-- ARGV[2]  limit:     permits in one window, >= 0
-- ARGV[3]  batch:     permits the node asks for, >= 1
-- ARGV[4]  window_ms: window width in ms, >= 1
--
-- Returns {granted, remaining, ttl_ms}: the permits handed over (0 when the
-- window is drained), what the window still has after this call, and the ms
-- left until the window ends (the node must drop what it holds by then).
--
-- The hash keeps two fields: w, the id of the window its count belongs to,
-- and n, the permits handed out in that window. A call in a newer window
-- starts the count again, so an old count never leaks forward even if its
-- key outlived its expiry.
local limit = tonumber(ARGV[2])
local batch = tonumber(ARGV[3])
local window = tonumber(ARGV[4])

local id = math.floor(now / window)
local used = 0
local stored = redis.call('HMGET', KEYS[1], 'w', 'n')
local w = tonumber(stored[1])
if w and w >= id then
  -- The window the key is counting. A caller whose time is behind it (a
  -- late timestamp, a clock stepped back) draws on it too: going back to an
  -- older window would hand out its whole limit again.
  id = w
  used = tonumber(stored[2]) or 0
end
local ttl = (id + 1) * window - now

local granted = math.max(0, math.min(batch, limit - used))
used = used + granted
redis.call('HSET', KEYS[1], 'w', int(id), 'n', int(used))
-- Always (re)set the expiry: a key that somehow lost its TTL heals on the
-- next call instead of living forever. Never longer than a window: a late
-- caller's ttl counts from its own time, and the count is worthless once
-- the window it names has ended.
redis.call('PEXPIRE', KEYS[1], int(math.min(ttl, window)))

return {granted, limit - used, ttl}
