-- GCRA: one number per key, the theoretical arrival time TAT (ms, fractional).
-- T = 1000/R ms per request, tau = (C - 1) * T. TAT starts at the first
-- arrival; TAT = max(TAT, now); a request of cost k is rejected iff
-- TAT + (k - 1) * T - now > tau (TAT unchanged), else TAT += k * T.
-- Same decisions as the token bucket with the same C and R.
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

local tat = tonumber(redis.call('GET', key)) or now
if tat < now then tat = now end

-- Whole cost-1 requests that would still pass right now with this TAT.
local function remaining(at)
  local r = math.floor((tau - (at - now)) / T + eps) + 1
  if r < 0 then r = 0 end
  return r
end

local over = tat + (cost - 1) * T - now - tau
if over > eps then
  -- Rejected; the key already expires when TAT passes (set below), but heal
  -- one that lost its expiry.
  if redis.call('PTTL', key) == -1 then
    redis.call('PEXPIRE', key, math.max(1, math.ceil(tat - now)))
  end
  return {0, remaining(tat), math.ceil(over - eps), now}
end

tat = tat + cost * T
-- Once now passes TAT the state says nothing more than "no key".
redis.call('SET', key, tat, 'PX', math.max(1, math.ceil(tat - now)))
return {1, remaining(tat), 0, now}
