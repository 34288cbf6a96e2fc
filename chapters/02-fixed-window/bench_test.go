package fixedwindow

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Every benchmark sends algotest's stream, one request per 500 µs, against
// W = 1 s, L = 1000: two requests per permit, so half the decisions allow
// and half reject.
var benchConfig = Config{Window: time.Second, Limit: algotest.BenchLimit}

func BenchmarkFixedWindow(b *testing.B) {
	algotest.BenchPair(b, "", benchConfig, New, NewLimiter, 0)
}

func BenchmarkFixedWindowTTL(b *testing.B) {
	algotest.BenchPair(b, "", benchConfig, NewTTL, NewTTLLimiter, 0)
}

// BenchmarkReferenceXTimeRate is the yardstick for the ratios quoted in the
// README: golang.org/x/time/rate's AllowN, one key, the same request stream.
func BenchmarkReferenceXTimeRate(b *testing.B) {
	algotest.BenchXTimeRate(b)
}
