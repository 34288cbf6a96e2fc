package distributed

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	"github.com/ratelimit-course/ratelimit/core"
)

// The caps on what a caller sends, so that a hostile value cannot become a
// megabyte of Redis key or pin a key's clock far ahead.
const (
	// MaxIDLen is the longest id in bytes: room for the longest key chapter
	// 01 builds (a user id of 64 bytes and a route of 256, 339 bytes written
	// as netstrings), as chapter 01 caps the parts of its keys.
	MaxIDLen = 512
	// MaxKeyLen is the longest prefetch key: an id's key with room for its
	// kind.
	MaxKeyLen = MaxIDLen + 88
	// MaxStampAhead is how far ahead of the Redis server's clock an explicit
	// time (AllowNAt, Borrow) may be: time never runs backwards for a key, so
	// one stamp far ahead would hold the key there for every caller on the
	// server's clock.
	MaxStampAhead = time.Minute
)

// checkID rejects an empty or over-long identity and one that would break
// the hash tag. Like chapter 01, it reports a long id's length, not its
// bytes.
func checkID(id string) error {
	if id == "" || len(id) > MaxIDLen {
		return core.BadParam("id", fmt.Sprintf("of %d bytes", len(id)), fmt.Sprintf("1 to %d bytes without { or }", MaxIDLen))
	}
	if strings.ContainsAny(id, "{}") {
		return core.BadParam("id", strconv.Quote(id), "a string without { or }")
	}
	return nil
}

// The limiters take their chapter's Config as it is: fixedwindow.Config
// for the two fixed windows, sliding.Config for the log and the counter,
// buckets.Config for the token bucket and GCRA. Each accepts exactly what
// that Config's Validate accepts (the course's domain, core/domain.go) and
// refuses with the same words, plus what the scripts need: a window of
// whole milliseconds, and for the sliding counter a limit small enough that
// Limit × the sub-window, counted in the script's units, is at most 2^51
// (its arithmetic stays exact in a Lua double). The sub-windows themselves
// are chapter 03's: N must divide W in ns, not in ms.

// maxScaled bounds the sliding counter's largest product, L × w (w the
// sub-window in the script's units, counterUnits), so that every number its
// script computes (at most about 3 L w) is exact in a double (2^53).
const maxScaled = 1 << 51

// checkFixed validates a config of the fixed windows: chapter 02's rule,
// and whole ms.
func checkFixed(c fixedwindow.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return wholeMillis("window", c.Window)
}

// checkLog validates a sliding-log config: chapter 03's rule, and whole ms.
func checkLog(c sliding.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return wholeMillis("window", c.Window)
}

// checkCounter validates a sliding-counter config: the log's rule (which
// takes chapter 03's sub-windows: N divides W in ns), and a limit that keeps
// the script's arithmetic exact.
func checkCounter(c sliding.Config) error {
	if err := checkLog(c); err != nil {
		return err
	}
	d, w := counterUnits(c)
	if int64(c.Limit) > maxScaled/w {
		return core.BadParam("limit", c.Limit, fmt.Sprintf(
			"at most 2^51 / %d = %d (a sub-window of %v is %d units of 1/%d ms, and the script's arithmetic is exact up to 2^53)",
			w, maxScaled/w, c.Window/time.Duration(max(c.SubWindows, 1)), w, d))
	}
	return nil
}

// counterUnits is the sliding counter's clock: d units per ms and a
// sub-window of w whole units, the fraction W/N ms in lowest terms
// (W = 250 ms, N = 4: 62.5 ms = 125 units of 1/2 ms). A whole-ms sub-window
// has d = 1. The script counts time in these units, so every boundary falls
// on a whole number; d divides N, at most 1000, so a time up to 2200 in
// units stays below 2^53.
func counterUnits(c sliding.Config) (d, w int64) {
	n, ms := int64(max(c.SubWindows, 1)), c.Window.Milliseconds()
	g := gcd(ms, n)
	return n / g, ms / g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// wholeMillis refuses a duration that is not a whole number of milliseconds:
// the scripts count time in ms.
func wholeMillis(param string, d time.Duration) error {
	if d%time.Millisecond != 0 {
		return core.BadParam(param, d, "a whole number of milliseconds (the Redis scripts count in ms)")
	}
	return nil
}
