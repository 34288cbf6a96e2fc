package cli

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSimTextFits80Columns: the people's output stays inside 80 columns and
// carries the timeline, both algorithms and the ruler's numbers.
func TestSimTextFits80Columns(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"sim", "--scenario", "cross-boundary-spike"}, []string{
			"cross-boundary-spike (E1)", "fixed-window", "sliding-log", "timeline", "1000",
			"max upstream in any W                      6                   3",
			"overshoot (over L)                         3                   0",
			"[820,1820)", "window 1: count 3", "log [880 940 1850]"}},
		{[]string{"sim", "--scenario", "prev-crowded-end"}, []string{"est 3.44", "max upstream in any W                      5                   3"}},
		{[]string{"sim", "--scenario", "prev-crowded-start"}, []string{"est 3.34", "est 3.28", "log [1200 1220 1240]"}},
		{[]string{"sim", "--scenario", "instant-burst"}, []string{"tokens 0.06", "TAT 1500, queue [500 1000]", "980"}},
		{[]string{"sim", "--scenario", "instant-burst", "--capacity", "6"}, []string{"TAT 2000, queue [500 1000 1500]", "1470"}},
		{[]string{"sim", "--algo", "leaky-queue", "--arrivals", "0,10,20,30", "--rate", "3"}, []string{"queued, departs at 333.33", "it would wait 970 > tau 666.67"}},
		{[]string{"sim", "--algo", "sliding-counter", "--arrivals", "0,1,2,3,4,5,6,7,8,9,5000,90000", "--subwindows", "4"}, []string{"subs ["}},
		{[]string{"sim", "--algo", "gcra", "--arrivals", "0,1,59999999,1000000000000", "--window", "60000"}, []string{"gcra"}},
		{[]string{"worst", "--algo", "sliding-counter"}, []string{"6 upstream in [999,1999)", "999 999 999 1001 1334 1667"}},
		{[]string{"worst", "--algo", "all"}, []string{"fixed-window-ttl", "2L-1 = 5"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := simRun(t, tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			for i, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > 80 {
					t.Errorf("line %d has %d columns: %q", i+1, n, l)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestSimTextFits80ColumnsAnyInput: large arrivals, windows, budgets and
// long states widen the columns or are cut, never the line. (Before, a
// state of 48 characters made an 81-column row, and 13-digit arrivals or
// sent times pushed every table past 80.)
func TestSimTextFits80ColumnsAnyInput(t *testing.T) {
	seqs := []string{
		strings.TrimSuffix(strings.Repeat("0,", 30), ","),
		"999999999999,1000000000000",
		"0,1000000000000",
		"123456789,123456790,123456791,999999999",
	}
	budgets := [][]string{
		{},
		{"--limit", "50", "--capacity", "50", "--rate", "0.001"},
		{"--window", "1000000000000", "--limit", "1000000"},
		{"--window", "60000", "--subwindows", "60", "--limit", "100"},
		{"--rate", "0.123456789012345", "--capacity", "123456789", "--limit", "123456789", "--subwindows", "999", "--window", "999999999999"},
	}
	for _, s := range seqs {
		for _, b := range budgets {
			for _, args := range [][]string{
				{"sim", "--algo", "sliding-log", "--arrivals", s},
				{"sim", "--algo", "sliding-counter", "--arrivals", s},
				{"sim", "--algo", "leaky-queue", "--arrivals", s},
				{"sim", "--algo", "fixed-window-ttl", "--arrivals", s},
				{"sim", "--scenario", "custom", "--arrivals", s, "--left", "sliding-counter", "--right", "leaky-queue"},
			} {
				out, errOut, code := simRun(t, append(args, b...)...)
				if code != 0 {
					t.Fatalf("%v %v: exit %d, %s", args, b, code, errOut)
				}
				for _, l := range strings.Split(out, "\n") {
					if n := utf8.RuneCountInString(l); n > 80 {
						t.Errorf("%v %v: line of %d columns: %q", args[:3], b, n, l)
					}
				}
			}
		}
	}
	out, _, _ := simRun(t, "worst", "--algo", "all", "--window", "1000000000000", "--limit", "2", "--capacity", "2")
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("worst --algo all: line of %d columns: %q", n, l)
		}
	}
}

// TestSimTimelineLabelsAreWholeBoundaries: every time printed on the axis is
// a window boundary kW, printed whole (a label that did not fit used to be
// cut, showing a wrong time), and the busiest-W label never runs into its
// frame.
func TestSimTimelineLabelsAreWholeBoundaries(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--algo", "fixed-window", "--arrivals", "0,100", "--window", "17000000000"}, // the busiest W runs to 17e9: its label used to be cut to 1700000000
		{"sim", "--algo", "fixed-window", "--arrivals", "3,1180", "--window", "20"},
		{"sim", "--algo", "fixed-window", "--arrivals", "0,1000000000000", "--window", "33333333333"},
		{"sim", "--algo", "sliding-log", "--arrivals", strings.TrimSuffix(strings.Repeat("5,", 1000), ","), "--limit", "1000"},
	} {
		out, errOut, code := simRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		var window int64 = 1000
		for i, a := range args {
			if a == "--window" {
				window, _ = strconv.ParseInt(args[i+1], 10, 64)
			}
		}
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "ms ") {
				fields := strings.Fields(l)[1:]
				for j, f := range fields {
					v, err := strconv.ParseInt(f, 10, 64)
					// The first label is the start time when no boundary is there.
					boundaryFirst := strings.HasPrefix(lines[i+1], strings.Repeat(" ", simLabelWidth)+"|")
					if err != nil || v%window != 0 && (j > 0 || boundaryFirst) {
						t.Errorf("%v: axis label %q is not a boundary of W %d: %q", args, f, window, l)
					}
				}
			}
			if strings.Contains(l, "busiest") && !strings.Contains(l, " [") && !strings.HasPrefix(l, "digits") {
				t.Errorf("%v: busiest label runs into its frame: %q", args, l)
			}
		}
	}
}

// TestSimClosingSentenceFitsTheRun: a scenario closes with the sentence
// written for the run it closes. (Before, --left gcra and --capacity 6 ended
// with the default run's "The token bucket forwards ... Raise C to 6 next.")
func TestSimClosingSentenceFitsTheRun(t *testing.T) {
	cases := []struct {
		args []string
		want string // the last paragraph, lines joined; "" for the metrics table
	}{
		{[]string{"--scenario", "instant-burst"}, "Same C and R, same decisions; only what upstream sees differs. " +
			"The token bucket forwards the burst at once, the queue spaces it T = 500 ms apart. Raise C to 6 next."},
		{[]string{"--scenario", "instant-burst", "--left", "gcra"}, "GCRA decides as the token bucket does, A A A R, " +
			"and forwards the three at once; the queue spaces the same three T = 500 ms apart. Raise C to 6 next."},
		{[]string{"--scenario", "instant-burst", "--capacity", "6"}, "With C = 6 both take all four. The token bucket " +
			"forwards them within 30 ms, 4 in one W, one over L; the queue sends them at 0, 500, 1000 and 1500, at most 2 in any W."},
		{[]string{"--scenario", "instant-burst", "--capacity", "5"}, ""},
		{[]string{"--scenario", "cross-boundary-spike", "--right", "sliding-counter"}, ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := simRun(t, append([]string{"sim"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			paras := strings.Split(strings.TrimSpace(out), "\n\n")
			last := paras[len(paras)-1]
			if tc.want == "" {
				if !strings.Contains(last, "max upstream in any W") {
					t.Errorf("want the metrics table last, got %q", last)
				}
				return
			}
			if got := strings.Join(strings.Fields(last), " "); got != tc.want {
				t.Errorf("closing sentence\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
