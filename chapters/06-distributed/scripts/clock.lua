-- The clock, after the prelude for every script that reads the time: the
-- caller's explicit time, or else Redis TIME in whole ms, one clock for
-- every app node (E11). A script that needs no time (fixed_window_ttl.lua,
-- timed by Redis expiry) is loaded without it and saves the call.
if now < 0 then
  local t = redis.call('TIME')
  now = t[1] * 1000 + math.floor(t[2] / 1000)
end

