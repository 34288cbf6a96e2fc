package store

import (
	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// LimiterMaker builds each algorithm's limiter from its chapter's Config,
// as one store keeps them: in memory (chapters 02-04) or on Redis
// (chapter 06's scripts).
type LimiterMaker[T any] interface {
	FixedWindow(fixedwindow.Config) (T, error)
	SlidingCounter(sliding.Config) (T, error)
	TokenBucket(buckets.Config) (T, error)
	GCRA(buckets.Config) (T, error)
}

// NewLimiter is where a rule becomes a limiter: L = requests_per_unit per
// unit for the windows; C = requests_per_unit, refilled over one unit, for
// the buckets (so a full bucket is the same budget as a window).
func NewLimiter[T any](r *rules.Rule, m LimiterMaker[T]) (T, error) {
	w, l := r.Unit.Window(), int(r.RequestsPerUnit)
	bucket := buckets.Config{Capacity: l, Rate: float64(l) / w.Seconds()}
	switch r.Algorithm {
	case rules.AlgoSlidingCounter:
		return m.SlidingCounter(sliding.Config{Window: w, Limit: l})
	case rules.AlgoTokenBucket:
		return m.TokenBucket(bucket)
	case rules.AlgoGCRA:
		return m.GCRA(bucket)
	}
	return m.FixedWindow(fixedwindow.Config{Window: w, Limit: l})
}
