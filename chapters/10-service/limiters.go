package service

import (
	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// limiterMaker builds each algorithm's limiter from its chapter's Config,
// as one store keeps them: in memory (chapters 02-04) or on Redis
// (chapter 06's scripts).
type limiterMaker[T any] interface {
	fixedWindow(fixedwindow.Config) (T, error)
	slidingCounter(sliding.Config) (T, error)
	tokenBucket(buckets.Config) (T, error)
	gcra(buckets.Config) (T, error)
}

// newLimiter is where a rule becomes a limiter: L = requests_per_unit per
// unit for the windows; C = requests_per_unit, refilled over one unit, for
// the buckets (so a full bucket is the same budget as a window).
func newLimiter[T any](r *rules.Rule, m limiterMaker[T]) (T, error) {
	w, l := r.Unit.Window(), int(r.RequestsPerUnit)
	bucket := buckets.Config{Capacity: l, Rate: float64(l) / w.Seconds()}
	switch r.Algorithm {
	case rules.AlgoSlidingCounter:
		return m.slidingCounter(sliding.Config{Window: w, Limit: l})
	case rules.AlgoTokenBucket:
		return m.tokenBucket(bucket)
	case rules.AlgoGCRA:
		return m.gcra(bucket)
	}
	return m.fixedWindow(fixedwindow.Config{Window: w, Limit: l})
}
