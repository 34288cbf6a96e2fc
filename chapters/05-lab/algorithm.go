package lab

// Algorithm names one algorithm the lab runs, as the command line and
// CONTRACT.md §2 write it; Algorithms lists the same names in order.
type Algorithm string

const (
	FixedWindow    Algorithm = "fixed-window"
	FixedWindowTTL Algorithm = "fixed-window-ttl"
	SlidingLog     Algorithm = "sliding-log"
	SlidingCounter Algorithm = "sliding-counter"
	TokenBucket    Algorithm = "token-bucket"
	GCRA           Algorithm = "gcra"
	LeakyQueue     Algorithm = "leaky-queue"
)
