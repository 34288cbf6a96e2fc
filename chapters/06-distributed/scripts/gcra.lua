-- GCRA: the state is one instant, the theoretical arrival time TAT.
-- T = 1000/R ms per request, tau = (C - 1) * T. TAT starts at the first
-- arrival; TAT = max(TAT, now); a request of cost k is rejected iff
-- TAT + (k - 1) * T - now > tau (TAT unchanged), else TAT += k * T.
-- Same decisions as the token bucket with the same C and R.
--
-- Time is counted in units of 1/D ms, where T = P/D (the caller picks D so
-- that P is whole when it can: R = 3 gives P = 1000, D = 3). Then every sum
-- below is of whole numbers and exact, however long TAT keeps moving ahead
-- of now; with a fractional T each request would add a rounding error.
-- The value is "<TAT whole ms> <TAT rest, in units> <latest ms>": an epoch in
-- units would not fit a double exactly, but the arithmetic only ever needs
-- TAT - now, which is small. The latest time the key has seen is kept
-- because time never runs backwards for a key: a caller whose time is behind
-- it is decided then, as in chapter 04, and its retry delay counts from its
-- own time.
-- KEYS[1]  "rl:{id}:gcra"
-- ARGV     now_ms (negative: read Redis TIME), cost, capacity, D, P
-- Returns  {allowed 0|1, remaining, retry_after_ms, now_ms}
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local C = tonumber(ARGV[3])
local D = tonumber(ARGV[4])
local P = tonumber(ARGV[5])
local key = KEYS[1]
local eps = 1e-9 * D -- the contract's 1e-9 ms tolerance, in units; only a fractional P needs it
local tau = (C - 1) * P
-- Expiry: C*T, the time a full bucket takes to drain, is never less than
-- TAT - now after a decision (at most tau + T); after it "no key" means the same.
local ttl = math.ceil(C * P / D)

-- debt = TAT - now in units, never below 0 (TAT = max(TAT, now)).
local caller = now
local debt = 0
local stored = redis.call('GET', key)
local whole, rest, last
if stored then
  whole, rest, last = string.match(stored, '^(%-?%d+) (%S+) (%-?%d+)$')
  last = tonumber(last)
  if last > now then now = last end
  debt = (tonumber(whole) - now) * D + tonumber(rest)
  if debt < 0 then debt = 0 end
end
local late = now - caller

-- Whole cost-1 requests that would still pass right now at this debt.
local function remaining(d)
  local r = math.floor((tau - d + eps) / P) + 1
  if r < 0 then r = 0 end
  return r
end

local over = debt + (cost - 1) * P - tau
if over > eps then
  -- Rejected: TAT stays, the latest time moves on. Keep the expiry set
  -- below, but heal a key that lost it.
  redis.call('SET', key, string.format('%s %s %d', whole, rest, now), 'KEEPTTL')
  if redis.call('PTTL', key) == -1 then
    redis.call('PEXPIRE', key, ttl + late)
  end
  return {0, remaining(debt), math.ceil((over - eps) / D) + late, caller}
end

debt = debt + cost * P
local w = math.floor(debt / D)
redis.call('SET', key, string.format('%d %.17g %d', now + w, debt - w * D, now),
  'PX', ttl + late)
return {1, remaining(debt), 0, caller}
