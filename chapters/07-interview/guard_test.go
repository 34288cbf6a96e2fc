//go:build !exercise

package interview

import (
	"strings"
	"testing"

	overload "github.com/ratelimit-course/ratelimit/chapters/09-overload"
)

// grow feeds an AIMD limit windows clean windows with inFlight requests in
// flight, with or without Netflix's app-limited guard (grow only when
// inFlight x 2 >= limit, as AIMDLimit does).
func grow(t *testing.T, guarded bool, inFlight, windows int) int {
	t.Helper()
	a, err := overload.NewAIMD(overload.AIMDConfig{Initial: 20, Min: 1, Max: 1000, Backoff: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	for range windows {
		if !guarded || inFlight*2 >= a.Limit() {
			a.Update(false)
		}
	}
	return a.Limit()
}

// TestAppLimitedGuard: chapter 09's AIMD from 20, through 100 quiet windows
// with 5 in flight: the bare rule climbs to 120 without ever testing the
// dependency, the guarded one stays at 20; at 10 in flight (half the limit)
// the guarded one grows as the bare one does. The card quotes the numbers.
func TestAppLimitedGuard(t *testing.T) {
	bare, guarded := grow(t, false, 5, 100), grow(t, true, 5, 100)
	busy := grow(t, true, 10, 1)
	if bare != 120 || guarded != 20 || busy != 21 {
		t.Fatalf("bare %d, guarded %d, guarded at half the limit %d; want 120, 20, 21", bare, guarded, busy)
	}
	a := card(t, "app-limited guard").A
	for _, s := range []string{"5 requests in flight", "100 quiet windows", "120", "stays at 20", "in flight x 2 >= limit", "in flight < limit / 2"} {
		if !strings.Contains(a, s) {
			t.Errorf("the app-limited card does not say %q", s)
		}
	}
}
