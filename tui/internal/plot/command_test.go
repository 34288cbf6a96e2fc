package plot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = Command(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestCommandBadInput: as tui sim, bad input exits 2 with one line on
// stderr naming the flag and what it accepts, and nothing on stdout.
func TestCommandBadInput(t *testing.T) {
	e1 := "820,880,940,960,1000,1060,1120,1850"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "fixed-window", "--arrivals", e1, "--window", "0"}, "plot: invalid --window 0: accepted"},
		{[]string{"--algo", "fixed-window", "--arrivals", e1, "--window", "abc"}, `plot: invalid --window "abc": accepted an integer`},
		{[]string{"--algo", "fixed-window", "--arrivals", e1, "--rate", "-1"}, "plot: invalid --rate -1: accepted"},
		{[]string{"--algo", "nope", "--arrivals", e1}, `plot: invalid --algo "nope": accepted one of fixed-window`},
		{[]string{"--algo", "fixed-window", "--arrivals", "5,3"}, "plot: invalid --arrivals 3 after 5: accepted"},
		{[]string{"--algo", "fixed-window", "--arrivals", "1,x"}, `plot: invalid --arrivals "1,x": accepted`},
		{[]string{"--algo", "fixed-window", "--arrivals", "1,2", "--costs", "1"}, "plot: invalid --costs"},
		{[]string{"--algo", "fixed-window", "--arrivals", "1,2", "--costs", "1,4"}, "plot: invalid --costs 4: accepted integers from 1 to the limit (3)"},
		{[]string{"--algo", "fixed-window"}, "plot: missing --arrivals"},
		{[]string{"--arrivals", e1}, "plot: missing --algo (or --scenario)"},
		{[]string{"--left", "gcra"}, "plot: --left and --right need --scenario"},
		{[]string{"--scenario", "nope"}, `plot: invalid --scenario "nope": accepted cross-boundary-spike`},
		{[]string{"--scenario", "custom"}, "plot: --scenario custom needs --arrivals"},
		{[]string{"--scenario", "instant-burst", "--arrivals", "1"}, "plot: --arrivals cannot change --scenario instant-burst"},
		{[]string{"--scenario", "instant-burst", "--algo", "gcra"}, "plot: --algo cannot be combined with --scenario"},
		{[]string{"--scenario", "instant-burst", "--left", "nope"}, `plot: invalid --left "nope"`},
		{[]string{"--scenario", "instant-burst", "--limit", "1", "--limit", "2"}, "plot: --limit given twice"},
		{[]string{"--bogus"}, `plot: unknown flag "--bogus": accepted --algo`},
		{[]string{"--algo"}, "plot: --algo needs a value: accepted one of"},
		{[]string{"--scenario", "instant-burst", "stray"}, `plot: unexpected argument "stray"`},
	} {
		code, out, errs := run(c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("plot %s: exit %d, stdout %d bytes, stderr %q; want 2, nothing, one line starting %q",
				strings.Join(c.args, " "), code, len(out), errs, c.want)
		}
	}
	if code, out, _ := run("--help"); code != 0 || !strings.HasPrefix(out, "usage: tui plot") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// TestSVGShowsTheRun: E1 through the fixed window draws its 6 allowed dots
// and 2 rejected crosses, the boundaries 0, 1000 and 2000 it counts in and
// the busiest W; --out writes the same bytes as stdout, every time.
func TestSVGShowsTheRun(t *testing.T) {
	args := []string{"--algo", "fixed-window", "--arrivals", "820,880,940,960,1000,1060,1120,1850"}
	code, svg, errs := run(args...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	legend := 1 // the legend draws one of each
	for what, want := range map[string]int{
		`fill="` + colAllowed + `"`:            6 + legend,
		`stroke="` + colRejected + `"`:         2 + legend,
		`stroke-dasharray="4 3"`:               3 + legend,
		">0</text>":                            2, // a boundary label and a tick
		">1000</text>":                         2, // the same (the arrival's label is left out: 40 ms from 960's)
		"busiest W: 6 upstream in [820, 1820)": 1,
		"&gt; L = 3, overshoot 3":              1,
	} {
		if got := strings.Count(svg, what); got != want {
			t.Errorf("%q appears %d times, want %d", what, got, want)
		}
	}
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>\n") {
		t.Errorf("not one SVG document: %.60q … %q", svg, svg[max(0, len(svg)-20):])
	}
	path := filepath.Join(t.TempDir(), "e1.svg")
	if code, out, errs := run(append(args, "--out", path)...); code != 0 || out != "" || errs != "" {
		t.Fatalf("--out: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != svg {
		t.Fatalf("--out wrote %d bytes (%v), not the %d of stdout", len(b), err, len(svg))
	}
	if code, out, errs := run("--algo", "fixed-window", "--arrivals", "1", "--out", filepath.Join(path, "x")); code != 1 || out != "" || !strings.HasPrefix(errs, "plot: cannot write") {
		t.Errorf("unwritable --out: exit %d, %q, %q; want 1 and one line", code, out, errs)
	}
}

// TestQueueDepartures: the leaky queue's row of departures, one ring per
// admitted request at its send time (E6: 0, 500, 1000).
func TestQueueDepartures(t *testing.T) {
	code, svg, errs := run("--algo", "leaky-queue", "--arrivals", "0,10,20,30")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := strings.Count(svg, `fill="#ffffff" stroke="`+colSent+`"`); got != 3+1 {
		t.Errorf("%d rings, want 3 departures and the legend's", got)
	}
	for _, label := range []string{">upstream<", ">500</text>", ">1000</text>"} {
		if !strings.Contains(svg, label) {
			t.Errorf("no %s", label)
		}
	}
}
