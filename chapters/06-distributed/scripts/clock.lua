-- The clock, after the prelude for every script that reads the time: the
-- caller's explicit time, or else Redis TIME. A script that needs no time
-- (fixed_window_ttl.lua, timed by Redis expiry) is loaded without it and
-- saves the call.
if now < 0 then
  now = servertime()
end

