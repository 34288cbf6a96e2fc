#!lua
-- The prelude. scripts.go puts these lines in front of every script when it
-- loads it, then clock.lua for every script that needs a time, so each
-- script file holds its algorithm and nothing else.
--
-- Line 1 is a Redis 7 shebang: it declares the script's flags, here none.
-- A script without the no-writes flag may write, so while used memory is
-- over maxmemory Redis refuses to start it at all and the caller gets an
-- OOM error, never a decision (E20). Without a shebang Redis refuses only
-- a script's first write, and one that has already deleted something (a
-- trim) may go on adding data past the limit.
--
-- int writes a whole number as digits. A Lua number passed to redis.call
-- reaches Redis as text with 17 significant digits, so from 1e17 on it
-- would arrive as "1e+17", which PEXPIRE and HINCRBY refuse as not an
-- integer.
local function int(x)
  return string.format('%d', x)
end

-- ARGV[1] is the caller's time in whole ms since the Unix epoch, or a
-- negative value for the server's own clock, which clock.lua (next) reads
-- for every script that needs a time. A caller's time may be behind the
-- server's, but at most a minute ahead (MaxStampAhead in config.go): time
-- never runs backwards for a key, so one stamp far ahead would hold the key
-- there for every caller on the server's clock. Further ahead, the script
-- refuses before it reads or writes anything, with the server's time in ms
-- after the code.
--
-- The server's time is Redis TIME in whole ms since the Unix epoch: TIME
-- replies with two strings, seconds and microseconds, which arithmetic
-- turns into numbers by itself. clock.lua repeats these two lines rather
-- than share a function: a local function is built anew on every run,
-- and a decision should pay only for what it uses.
local now = tonumber(ARGV[1])
if now >= 0 then
  local t = redis.call('TIME')
  local server = t[1] * 1000 + math.floor(t[2] / 1000)
  if now > server + 60000 then
    return redis.error_reply('STAMPAHEAD ' .. string.format('%d', server))
  end
end

