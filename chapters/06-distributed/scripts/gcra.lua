-- GCRA: the state is one instant, the theoretical arrival time TAT (ms,
-- fractional). T = 1000/R ms per request, tau = (C - 1) * T. TAT starts at
-- the first arrival; TAT = max(TAT, now); a request of cost k is rejected iff
-- TAT + (k - 1) * T - now > tau (TAT unchanged), else TAT += k * T.
-- Same decisions as the token bucket with the same C and R.
--
-- The value is "<TAT whole ms> <TAT fraction> <latest ms>". A float holding
-- epoch ms directly has a step of about 0.0002 ms, too coarse to keep an
-- exact tie a tie when T is fractional (R = 3: T = 333.33… ms); the whole
-- part is exact, and the arithmetic below only ever touches TAT - now, which
-- is small. The latest time the key has seen is kept because time never runs
-- backwards for a key: a caller whose time is behind it is decided then, as
-- in chapter 04, and its retry delay counts from its own time.
-- KEYS[1]  "rl:{id}:gcra"
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
local T = 1000 / R
local tau = (C - 1) * T

-- debt = TAT - now, never below 0 (TAT = max(TAT, now)).
local caller = now
local debt = 0
local stored = redis.call('GET', key)
local whole, frac, last
if stored then
  whole, frac, last = string.match(stored, '^(%-?%d+) (%S+) (%-?%d+)$')
  last = tonumber(last)
  if last > now then now = last end
  debt = (tonumber(whole) - now) + tonumber(frac)
  if debt < 0 then debt = 0 end
end
local late = now - caller

-- Whole cost-1 requests that would still pass right now at this debt.
local function remaining(d)
  local r = math.floor((tau - d) / T + eps) + 1
  if r < 0 then r = 0 end
  return r
end

local over = debt + (cost - 1) * T - tau
if over > eps then
  -- Rejected: TAT stays, the latest time moves on. The key already expires
  -- when TAT passes (set below), but heal one that lost its expiry.
  redis.call('SET', key, string.format('%s %s %d', whole, frac, now), 'KEEPTTL')
  if redis.call('PTTL', key) == -1 then
    redis.call('PEXPIRE', key, math.max(1, math.ceil(debt + late)))
  end
  return {0, remaining(debt), math.ceil(over - eps) + late, caller}
end

debt = debt + cost * T
local w = math.floor(debt)
-- Once now passes TAT the state says nothing more than "no key".
redis.call('SET', key, string.format('%d %.17g %d', now + w, debt - w, now),
  'PX', math.max(1, math.ceil(debt + late)))
return {1, remaining(debt), 0, caller}
