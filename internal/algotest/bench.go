package algotest

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"golang.org/x/time/rate"
)

// BenchOrigin is where every benchmark's clock starts: a realistic Unix time,
// so that no algorithm gets an easy small number.
var BenchOrigin = time.Unix(1_700_000_000, 0)

// The request stream every window chapter's benchmarks send, and the
// yardstick's: one request per BenchStep against a limit of BenchLimit per
// second, two requests per permit, so about half the decisions allow and
// half reject.
const (
	BenchStep  = 500 * time.Microsecond
	BenchLimit = 1000
)

// BenchKeys is how many keys the keyed benchmarks spread over (a power of two).
const BenchKeys = 1024

// BenchSingle times one key's AllowN on a clock that moves BenchStep per
// request.
func BenchSingle(b *testing.B, a core.Algorithm) {
	b.ReportAllocs()
	now := BenchOrigin
	for b.Loop() {
		now = now.Add(BenchStep)
		a.AllowN(now, 1)
	}
}

// BenchXTimeRate is the yardstick for the ratios the READMEs quote:
// golang.org/x/time/rate's AllowN, one key (BenchLimit per second, burst
// BenchLimit), on the same request stream as BenchSingle.
func BenchXTimeRate(b *testing.B) {
	l := rate.NewLimiter(rate.Limit(BenchLimit), BenchLimit)
	b.ReportAllocs()
	now := BenchOrigin
	for b.Loop() {
		now = now.Add(BenchStep)
		l.AllowN(now, 1)
	}
}

// BenchKeyed times a keyed limiter from parallel goroutines over BenchKeys
// keys; each key sees one request per BenchStep. warm requests per key are sent
// first, untimed, so that one-off growth (a log reaching L entries) is not
// charged to the timed decisions. Each goroutine walks its own clock, so a
// key may see a slightly older instant from another goroutine, which it
// treats as the latest time seen.
func BenchKeyed(b *testing.B, allow func(key string, now time.Time) core.Decision, warm int) {
	keys := make([]string, BenchKeys)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
	}
	for i := range warm {
		for _, k := range keys {
			allow(k, BenchOrigin.Add(time.Duration(i)*BenchStep))
		}
	}
	var seed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(seed.Add(7919))
		now := BenchOrigin.Add(time.Duration(warm) * BenchStep)
		for pb.Next() {
			i++
			now = now.Add(BenchStep / BenchKeys)
			allow(keys[i&(BenchKeys-1)], now)
		}
	})
}

// BenchPair runs the two sub-benchmarks every window chapter has, under
// prefix: AllowN, one algorithm from newAlg(c) on BenchSingle, and
// KeyedParallel, the keyed limiter from newKeyed(c) on BenchKeyed with warm
// untimed requests per key.
func BenchPair[C any, A core.Algorithm, K interface {
	Allow(key string, now time.Time) core.Decision
}](b *testing.B, prefix string, c C, newAlg func(C) (A, error), newKeyed func(C) (K, error), warm int) {
	b.Run(prefix+"AllowN", func(b *testing.B) {
		a, err := newAlg(c)
		if err != nil {
			b.Fatal(err)
		}
		BenchSingle(b, a)
	})
	b.Run(prefix+"KeyedParallel", func(b *testing.B) {
		k, err := newKeyed(c)
		if err != nil {
			b.Fatal(err)
		}
		BenchKeyed(b, k.Allow, warm)
	})
}
