package lab

import (
	"errors"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestParseAlgorithm: every listed name reads back as itself, and anything
// else, even a near miss, is an "algo" error that lists the accepted names.
func TestParseAlgorithm(t *testing.T) {
	for _, a := range Algorithms {
		if got, err := ParseAlgorithm(string(a)); err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %q, %v", a, got, err)
		}
	}
	for _, bad := range []string{"", "leaky-bucket", "Fixed-Window", " gcra"} {
		_, err := ParseAlgorithm(bad)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "algo" {
			t.Fatalf("ParseAlgorithm(%q) error %v, want an algo error", bad, err)
		}
		want := "one of fixed-window, fixed-window-ttl, sliding-log, sliding-counter, token-bucket, gcra, leaky-queue"
		if pe.Accept != want {
			t.Errorf("ParseAlgorithm(%q) accepts %q, want %q", bad, pe.Accept, want)
		}
	}
}
