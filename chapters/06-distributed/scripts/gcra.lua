-- GCRA: the state is one instant, the theoretical arrival time TAT.
-- T = 1000/R ms per permit, tau = (C - 1) * T. TAT starts at the first
-- arrival and TAT = max(TAT, now); a request of cost k is rejected iff
-- TAT + (k - 1) * T - now > tau (TAT unchanged), else TAT += k * T.
-- It decides as the token bucket does with the same C and R.
--
-- Time is counted in units of 1/D ms, where T = P/D: limiters.go picks D so
-- that P is a whole number when it can (R = 3: P = 1000, D = 3). Then every
-- sum below is of whole numbers and exact however long TAT stays ahead of
-- now; a fractional T would add a rounding error with every permit.
-- The value is "<TAT whole ms> <the rest, in units> <latest ms>": TAT as
-- an epoch count of units would not fit a double exactly, and only
-- TAT - now, which is small, is ever needed. The latest time the key has
-- seen is kept because time never runs backwards for a key: a caller
-- behind it is decided then, and its retry delay counts from its own time.
-- KEYS[1]  "rl:{id}:gcra"
-- ARGV     now_ms, cost, capacity, D, P, ttl_ms
-- Returns  {allowed 0|1, remaining, retry_after_ms}
local cost = tonumber(ARGV[2])
local C = tonumber(ARGV[3])
local D = tonumber(ARGV[4])
local P = tonumber(ARGV[5])
local key = KEYS[1]
local eps = 1e-9 * D -- the contract's 1e-9 ms tolerance, in units; only a fractional P needs it
local tau = (C - 1) * P
-- The state's lifetime, ceil(C * P / D) ms = C * T from its latest time:
-- TAT - now is at most tau + T = C * T after any decision, and then "no
-- key" means the same. Go works it out once per limiter and sends the
-- digits, which saves every decision a string.format.
local ttl = ARGV[6]

-- debt = TAT - now in units, never below 0 (TAT = max(TAT, now)).
-- Lua turns the stored digits into numbers by itself when they meet
-- arithmetic, so only the latest time, which is compared, needs tonumber.
local caller = now
local debt = 0
local whole, rest, last
local stored = redis.call('GET', key)
if stored then
  whole, rest, last = string.match(stored, '^(%S+) (%S+) (%S+)$')
  last = tonumber(last)
  if last > now then now = last end
  debt = (whole - now) * D + rest
  if debt < 0 then debt = 0 end
end
local late = now - caller

-- remaining is the number of whole cost-1 requests that would still pass
-- now at a given debt: floor((tau - debt) / T) + 1, never below 0.
local over = debt + (cost - 1) * P - tau
if over > eps then
  -- Rejected: TAT stays and the latest time moves on, under the expiry
  -- already set (healed if the key lost it).
  redis.call('SET', key, string.format('%s %s %d', whole, rest, now), 'KEEPTTL')
  if redis.call('PTTL', key) < 0 then
    redis.call('PEXPIRE', key, ttl)
  end
  local remaining = math.floor((tau - debt + eps) / P) + 1
  if remaining < 0 then remaining = 0 end
  return {0, remaining, math.ceil((over - eps) / D) + late}
end

debt = debt + cost * P
local ms = math.floor(debt / D)
rest = debt - ms * D
-- A whole rest (always, when P is whole) is written with %d, which gives
-- the same digits as %.17g for far less work.
local format = '%d %.17g %d'
if rest % 1 == 0 then format = '%d %d %d' end
redis.call('SET', key, string.format(format, now + ms, rest, now), 'PX', ttl)
local remaining = math.floor((tau - debt + eps) / P) + 1
if remaining < 0 then remaining = 0 end
return {1, remaining, 0}
