-- Sliding log: one sorted-set entry per allowed request, scored with its
-- time in ms. The window at now is (now - W, now]: an entry whose age has
-- reached W is dropped. A request of cost k is allowed iff the cost of the
-- entries left plus k is at most L. Rejected requests are not logged.
--
-- An entry is the member "<seq>:<sum>:<cost>". sum is the cost of that
-- entry and every older one, so the cost inside the window is the newest
-- sum minus the sum before the oldest entry, and a request of cost k is one
-- ZADD whatever k is: memory grows with the number of requests, not their
-- cost. Sums are kept modulo 2^50 so they stay exact in a double; a window
-- never holds anywhere near that much. seq numbers the entries of one ms
-- from 0, zero-padded: a sorted set orders equal scores by member, and seq
-- keeps that order the order of arrival.
--
-- One more member, "t", is scored with the latest time the key has seen.
-- It sorts after every entry (letters come after digits), so the entries
-- are ranks 0 .. n-1, oldest first, and "t" is rank n.
-- KEYS[1]  "rl:{id}:log"
-- ARGV     now_ms, cost, window_ms, limit
-- Returns  {allowed 0|1, remaining, retry_after_ms}
local cost = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local key = KEYS[1]
local M = 2 ^ 50

-- The last two ranks are the newest entry and "t" (a key with no entry
-- left holds "t" alone, a new key nothing): one read for both.
local top = redis.call('ZRANGE', key, -2, -1, 'WITHSCORES')
local newest, seq, at = 0, 0, nil -- the newest entry's sum, next seq, time
if #top == 4 then
  local s, sum = string.match(top[1], '^(%d+):(%d+):')
  newest, seq, at = tonumber(sum), tonumber(s) + 1, tonumber(top[2])
end

-- Time never runs backwards for a key: a caller behind the latest time
-- seen is decided at that time, and its retry delay counts from its own.
local caller = now
local last = tonumber(top[#top])
if last and last > now then now = last end
redis.call('ZREMRANGEBYSCORE', key, '-inf', int(now - window))

-- entry(rank) is the sum, cost and time of one entry.
local function entry(rank)
  local m = redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')
  local sum, c = string.match(m[1], '^%d+:(%d+):(%d+)$')
  return tonumber(sum), tonumber(c), tonumber(m[2])
end

-- If the newest entry is still inside the window, so is the log from its
-- oldest entry on, rank 0 after the trim.
local used, before = 0, 0
if at and at > now - window then
  local sum, c = entry(0)
  before = sum - c
  used = (newest - before) % M
else
  newest, at = 0, nil -- the log is empty: the sums start again
end
if at ~= now then seq = 0 end

-- A cost of 0 is a look (Peek): what is left, and nothing logged.
if cost == 0 then return {1, limit - used, 0} end

if used + cost <= limit then
  local member = string.format('%010d:%d:%d', seq, (newest + cost) % M, cost)
  -- The entry and the latest time in one call.
  redis.call('ZADD', key, int(now), member, int(now), 't')
  -- The new entry is the newest: W from now the log is empty.
  redis.call('PEXPIRE', key, int(window))
  return {1, limit - used - cost, 0}
end
redis.call('ZADD', key, int(now), 't')

-- Rejected: the request fits once over = used + cost - L permits have left
-- the window. Entries leave oldest first, so find the first entry whose sum
-- reaches before + over (the sums grow with the rank: a binary search over
-- the n entries, ranks 0 .. n-1, "t" being rank n); the request fits when
-- that entry's age reaches W.
local over = used + cost - limit
local lo, hi = 0, redis.call('ZCARD', key) - 2
while lo < hi do
  local mid = math.floor((lo + hi) / 2)
  if (entry(mid) - before) % M >= over then hi = mid else lo = mid + 1 end
end
local _, _, oldest = entry(lo)
if redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, int(at + window - now))
end
return {0, limit - used, oldest + window - caller}
