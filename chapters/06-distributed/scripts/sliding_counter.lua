-- Sliding counter: the window W is cut into N sub-windows of W/N ms. At
-- elapsed time e into the current sub-window k, the estimate counts
-- sub-windows k-N+1 .. k in full and sub-window k-N, the oldest and only
-- partly inside (now - W, now], by the fraction still inside, (w - e)/w.
-- N = 1 is the two-counter rule (previous, current). A request of cost c is
-- allowed iff estimate + c - 1 < L; only allowed cost is counted.
--
-- Time is counted in units of 1/D ms, with D chosen (config.go,
-- counterUnits) so that a sub-window is a whole number w of them: W = 250,
-- N = 4 gives D = 2 and w = 125 (62.5 ms); a whole-ms sub-window has D = 1.
-- Every quantity is kept multiplied by w, so the arithmetic is on whole
-- numbers and exact (config.go keeps L * w within 2^51, far inside a
-- double's 2^53). Answers go back in whole ms, rounded up.
-- KEYS[1]  "rl:{id}:sc", a hash: sub-window index -> cost allowed in it,
--          and t -> the latest time the key has seen, in ms
-- ARGV     now_ms, cost, window_ms, limit, subwindows, units per ms (D)
-- Returns  {allowed 0|1, remaining, retry_after_ms}
local cost = tonumber(ARGV[2])
local W = tonumber(ARGV[3])
local L = tonumber(ARGV[4])
local N = tonumber(ARGV[5])
local D = tonumber(ARGV[6])
local w = W * D / N
local key = KEYS[1]

-- ms is a count of units rounded up to whole ms.
local function ms(u) return math.floor((u + D - 1) / D) end

-- The whole hash in one read: the counts and t. Time never runs backwards
-- for a key: a caller behind the latest time seen is decided at that time
-- (at its own, the counts of later sub-windows would be left out), and its
-- retry delay counts from its own.
local flat = redis.call('HGETALL', key)
local caller = now
for i = 1, #flat, 2 do
  if flat[i] == 't' then now = math.max(now, tonumber(flat[i + 1])) end
end

local u = now * D             -- now in units
local k = math.floor(u / w)   -- the current sub-window
local e = u - k * w           -- elapsed in it, in units: 0 <= e < w

-- The counts still in reach; older ones are deleted, in one call.
local count, old = {}, {}
for i = 1, #flat, 2 do
  local j = tonumber(flat[i]) -- nil for the field t
  if j and j < k - N then
    old[#old + 1] = flat[i]
  elseif j then
    count[j] = tonumber(flat[i + 1])
  end
end
if #old > 0 then redis.call('HDEL', key, unpack(old)) end
local function at(j) return count[j] or 0 end
local full = 0 -- the cost of sub-windows k-N+1 .. k
for j = k - N + 1, k do full = full + at(j) end

-- Whole permits left at a scaled estimate s: ceil(L - s/w), at least 0.
local function remaining(s)
  return math.max(0, math.floor((L * w - s + w - 1) / w))
end

-- Sub-window k counts in estimates until it has left the window entirely,
-- W after it ends.
local ttl = ms(W * D + w - e)
local est = at(k - N) * (w - e) + w * full
if est + w * (cost - 1) < L * w then
  -- The latest time and the sub-window's new count in one write.
  redis.call('HSET', key, 't', int(now), int(k), int(at(k) + cost))
  redis.call('PEXPIRE', key, int(ttl))
  return {1, remaining(est + w * cost), 0}
end

-- Rejected: find the first unit from now, at least 1, at which the
-- estimate has fallen enough; the estimate only falls from here on, so the
-- first whole ms at which it fits is that many units rounded up.
-- In sub-window k+m, at elapsed e', the estimate is
-- A * (w - e') + w * F, with A the count of sub-window k+m-N and F the
-- counts after it: it falls as e' grows, and is continuous from one
-- sub-window to the next. It fits iff A * (w - e') < B = w * (L - F - c + 1),
-- that is e' > w - B/A.
local retry
local F = full
for m = 0, N + 1 do
  local j = k + m
  if m > 0 then F = F - at(j - N) + at(j) end
  local A = at(j - N)
  local B = w * (L - F - cost + 1)
  if B > 0 then
    local first = 0 -- the first e' this sub-window offers (at least a unit from now)
    if m == 0 then first = e + 1 end
    if A > 0 then
      first = math.max(first, w - math.floor((B + A - 1) / A) + 1)
    end
    if first < w then
      retry = ms(m * w + first - e)
      break
    end
  end
end
redis.call('HSET', key, 't', int(now))
if redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, int(ttl))
end
return {0, remaining(est), retry + now - caller}
