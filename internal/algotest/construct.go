package algotest

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// BadWindowLimits are windows and limits outside the course's domain
// (core/domain.go: a window from 1 ns to 1e18 ns, a limit from 1 to 1e9),
// each with the parameter its refusal names. Chapters 02 and 03 take W and
// L alike and refuse every one of them.
var BadWindowLimits = []struct {
	Window time.Duration
	Limit  int
	Param  string
}{
	{0, 3, "window"},
	{-time.Second, 3, "window"},
	{core.MaxWindow + 1, 3, "window"},
	{math.MaxInt64, 3, "window"},
	{time.Second, 0, "limit"},
	{time.Second, -1, "limit"},
	{time.Second, -5, "limit"},
	{time.Second, core.MaxCount + 1, "limit"},
	{time.Second, math.MaxInt, "limit"}, // a counter near MaxInt would wrap
}

// ParamError checks that err, from what, is a *core.ParamError naming param
// whose message names it too and says what is accepted.
func ParamError(t testing.TB, what string, err error, param string) {
	t.Helper()
	var pe *core.ParamError
	switch {
	case !errors.As(err, &pe) || pe.Param != param:
		t.Errorf("%s: err %v, want a ParamError naming %q", what, err, param)
	case !strings.Contains(err.Error(), param) || pe.Accept == "":
		t.Errorf("%s: message %q must name %q and what is accepted", what, err, param)
	}
}

// Must returns newAlg(c), or fails t with the constructor's error.
func Must[C, A any](t testing.TB, newAlg func(C) (A, error), c C) A {
	t.Helper()
	a, err := newAlg(c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
