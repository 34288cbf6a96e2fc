package lab

import (
	"slices"
	"testing"
)

// TestAlgorithmNamesAreTheListed: the typed names are Algorithms, in order.
func TestAlgorithmNamesAreTheListed(t *testing.T) {
	typed := []Algorithm{FixedWindow, FixedWindowTTL, SlidingLog, SlidingCounter, TokenBucket, GCRA, LeakyQueue}
	var names []string
	for _, a := range typed {
		names = append(names, string(a))
	}
	if !slices.Equal(names, Algorithms) {
		t.Fatalf("typed names %v, Algorithms %v", names, Algorithms)
	}
}
