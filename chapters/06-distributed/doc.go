// Package distributed is chapter 06: one limit shared by many app nodes. The
// count lives in Redis, and each algorithm of chapters 02–04 becomes one Lua
// script that reads, decides and writes atomically, timed by the Redis
// server's clock, with every key under a hash tag and an expiry.
package distributed
