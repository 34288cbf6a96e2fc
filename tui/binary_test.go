package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryExitCodes: the built binary hands cli.Run's exit code to the
// shell and its two streams to stdout and stderr. What the commands print
// is tested in-process (tui/internal/cli); only main's wiring needs the
// binary.
func TestBinaryExitCodes(t *testing.T) {
	bin := buildTUI(t)
	cases := []struct {
		args       []string
		code       int
		out, errIn string // a substring of stdout, of stderr ("" : that stream is empty)
	}{
		{[]string{"sim", "--scenario", "cross-boundary-spike", "--json"}, 0, `"algorithm":"fixed-window"`, ""},
		{[]string{"sim", "--algo", "fixed-window", "--arrivals", "5,1"}, 2, "", "--arrivals"},
	}
	for _, tc := range cases {
		cmd := exec.Command(bin, tc.args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if code != tc.code || (tc.out == "") != (out.Len() == 0) || !strings.Contains(out.String(), tc.out) ||
			(tc.errIn == "") != (errOut.Len() == 0) || !strings.Contains(errOut.String(), tc.errIn) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tc.args, code, out.String(), errOut.String(), tc.code, tc.out, tc.errIn)
		}
		if tc.code == 0 && !json.Valid(out.Bytes()) {
			t.Errorf("%v: stdout is not JSON: %s", tc.args, out.String())
		}
	}
}
