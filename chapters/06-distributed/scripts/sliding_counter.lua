-- Sliding counter: W split into N sub-windows of W/N; the full sub-windows
-- inside (now - W, now] count fully, the oldest, partly covered one by the
-- fraction still covered. N = 1 is the two-counter rule (prev, curr).
-- Allow iff estimate + cost - 1 < L (for cost 1: estimate < L).
--
-- Exact integer arithmetic: time is scaled by N so a sub-window is W units
-- long, and the estimate is kept multiplied by W.
-- KEYS[1]  "rl:{id}:sc", a hash: sub-window index -> allowed count in it,
--          and t -> the latest time the key has seen
-- ARGV     now_ms (negative: read Redis TIME), cost, window_ms, limit, subwindows
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local W = tonumber(ARGV[3])
local L = tonumber(ARGV[4])
local N = tonumber(ARGV[5])
local key = KEYS[1]

-- Time never runs backwards for a key: a caller whose time is behind the
-- latest one seen is decided at that time, as in chapter 03 (at its own
-- time the counts of later sub-windows would be left out), and its retry
-- delay counts from its own time.
local caller = now
local last = tonumber(redis.call('HGET', key, 't'))
if last and last > now then now = last end
redis.call('HSET', key, 't', now)

local k = math.floor(now * N / W) -- current sub-window
local e = now * N - k * W         -- elapsed in it, scaled by N: 0 <= e < W

-- Load the counts still in reach; drop the older ones.
local c = {}
local flat = redis.call('HGETALL', key)
for i = 1, #flat, 2 do
  local j = tonumber(flat[i]) -- nil for the field t
  if not j then
    -- not a sub-window
  elseif j < k - N then
    redis.call('HDEL', key, flat[i])
  else
    c[j] = tonumber(flat[i + 1])
  end
end
local function count(j) return c[j] or 0 end

-- estimate * W at elapsed e in sub-window j (j >= k, later ones are empty)
local function scaled(j, ej)
  local s = count(j - N) * (W - ej)
  for i = j - N + 1, j do s = s + W * count(i) end
  return s
end

local function remaining_at(s)
  local r = L * W - s
  if r <= 0 then return 0 end
  return math.floor((r + W - 1) / W) -- ceil(L - estimate)
end

local est = scaled(k, e)
if est + W * (cost - 1) < L * W then
  redis.call('HINCRBY', key, k, cost)
  -- Sub-window k weighs on estimates until it has left the window entirely.
  redis.call('PEXPIRE', key, math.ceil((W - e) / N) + W + now - caller)
  return {1, remaining_at(est + W * cost), 0, caller}
end

-- Rejected: find the first whole ms d >= 1 at which the estimate has fallen
-- enough. In sub-window k+m the estimate is A*(W - e') + W*F with A the count
-- of sub-window k+m-N and F the counts after it: a straight line per segment.
local retry = nil
for m = 0, N + 1 do
  local j = k + m
  local A = count(j - N)
  local F = 0
  for i = j - N + 1, j do F = F + count(i) end
  local B = L * W - W * (F + cost - 1) -- need A*(W - e') < B
  local first = math.ceil((m * W - e) / N)     -- first ms of the segment
  if first < 1 then first = 1 end
  local last = (m + 1) * W - e                 -- segment ends before d*N = last
  if B > 0 then
    local d
    if A == 0 then
      d = first
    else
      -- A*(W - (d*N + e - m*W)) < B  <=>  d*N > (m+1)*W - e - B/A
      d = math.floor((((m + 1) * W - e) * A - B) / (A * N)) + 1
      if d < first then d = first end
    end
    if d * N < last then
      retry = d
      break
    end
  end
end
if redis.call('PTTL', key) == -1 then
  redis.call('PEXPIRE', key, math.ceil((W - e) / N) + W + now - caller)
end
return {0, remaining_at(est), (retry or W) + now - caller, caller}
