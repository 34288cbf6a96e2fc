// Package fixedwindow is chapter 02: the fixed-window counter, the simplest
// rate limiter and the one most often built with a single Redis INCR.
//
// Two variants share one Config. Window cuts time into aligned windows
// [kW, (k+1)W) (`fixed-window`, the INCR on a key named after floor(t/W));
// TTLWindow opens a key's window at its first request and lets it expire W
// later (`fixed-window-ttl`, the INCR plus an expiry set on first hit). Both
// count rejected requests too, as INCR does, and both let up to about twice
// the limit through around a window edge.
package fixedwindow
