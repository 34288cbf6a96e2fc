package algotest

import (
	"errors"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

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
