package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// simRun runs the command line in-process and returns stdout, stderr and the
// exit code.
func simRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// The CONTRACT.md §4 example, whole: E1 through the fixed window.
const e1FixedJSON = `{"algorithm":"fixed-window",
"params":{"window_ms":1000,"limit":3,"capacity":3,"rate_per_s":2,"subwindows":1},
"requests":[
{"index":1,"arrival_ms":820,"cost":1,"allowed":true,"sent_ms":820,"wait_ms":0},
{"index":2,"arrival_ms":880,"cost":1,"allowed":true,"sent_ms":880,"wait_ms":0},
{"index":3,"arrival_ms":940,"cost":1,"allowed":true,"sent_ms":940,"wait_ms":0},
{"index":4,"arrival_ms":960,"cost":1,"allowed":false,"sent_ms":null,"wait_ms":null},
{"index":5,"arrival_ms":1000,"cost":1,"allowed":true,"sent_ms":1000,"wait_ms":0},
{"index":6,"arrival_ms":1060,"cost":1,"allowed":true,"sent_ms":1060,"wait_ms":0},
{"index":7,"arrival_ms":1120,"cost":1,"allowed":true,"sent_ms":1120,"wait_ms":0},
{"index":8,"arrival_ms":1850,"cost":1,"allowed":false,"sent_ms":null,"wait_ms":null}],
"metrics":{"allowed":6,"rejected":2,"max_in_window":6,"overshoot":3,"max_wait_ms":0,"state_values":2}}`

func TestE1_SimJSON(t *testing.T) {
	out, errOut, code := simRun(t, "sim", "--algo", "fixed-window",
		"--arrivals", "820,880,940,960,1000,1060,1120,1850", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := strings.ReplaceAll(e1FixedJSON, "\n", "") + "\n"
	if out != want {
		t.Errorf("sim --json\n got %s\nwant %s", out, want)
	}
}

// simJSON mirrors the CONTRACT.md §4 shape for decoding; pointers tell a JSON null
// from a missing field.
type simJSON struct {
	Algorithm string `json:"algorithm"`
	Params    struct {
		WindowMS   *int64   `json:"window_ms"`
		Limit      *int     `json:"limit"`
		Capacity   *int     `json:"capacity"`
		RatePerS   *float64 `json:"rate_per_s"`
		SubWindows *int     `json:"subwindows"`
	} `json:"params"`
	Requests []map[string]any `json:"requests"`
	Metrics  map[string]int64 `json:"metrics"`
}

type scenarioJSON struct {
	Scenario string  `json:"scenario"`
	Left     simJSON `json:"left"`
	Right    simJSON `json:"right"`
}

// expect is one side of a scenario: decisions, sent times (-1 rejected) and
// the six metrics in contract order.
type expect struct {
	algo      string
	decisions string
	sent      []int64
	metrics   [6]int64 // allowed rejected max_in_window overshoot max_wait_ms state_values
}

func (e expect) check(t *testing.T, side string, got simJSON) {
	t.Helper()
	if got.Algorithm != e.algo {
		t.Errorf("%s algorithm %q, want %q", side, got.Algorithm, e.algo)
	}
	p := got.Params
	if p.WindowMS == nil || p.Limit == nil || p.Capacity == nil || p.RatePerS == nil || p.SubWindows == nil {
		t.Errorf("%s params incomplete", side)
	}
	if len(got.Requests) != len(e.sent) {
		t.Fatalf("%s: %d requests, want %d", side, len(got.Requests), len(e.sent))
	}
	var dec strings.Builder
	for i, q := range got.Requests {
		for _, f := range []string{"index", "arrival_ms", "cost", "allowed", "sent_ms", "wait_ms"} {
			if _, ok := q[f]; !ok {
				t.Errorf("%s request %d lacks %q", side, i+1, f)
			}
		}
		if len(q) != 6 {
			t.Errorf("%s request %d has fields %v, want exactly the contract six", side, i+1, q)
		}
		if q["allowed"] == true {
			dec.WriteByte('A')
		} else {
			dec.WriteByte('R')
		}
		switch {
		case e.sent[i] < 0:
			if q["sent_ms"] != nil || q["wait_ms"] != nil {
				t.Errorf("%s request %d rejected: sent %v wait %v, want null", side, i+1, q["sent_ms"], q["wait_ms"])
			}
		case q["sent_ms"] != float64(e.sent[i]) || q["wait_ms"] != float64(e.sent[i])-q["arrival_ms"].(float64):
			t.Errorf("%s request %d: sent %v wait %v, want sent %d", side, i+1, q["sent_ms"], q["wait_ms"], e.sent[i])
		}
	}
	if dec.String() != e.decisions {
		t.Errorf("%s decisions %s, want %s", side, dec.String(), e.decisions)
	}
	names := []string{"allowed", "rejected", "max_in_window", "overshoot", "max_wait_ms", "state_values"}
	if len(got.Metrics) != len(names) {
		t.Errorf("%s metrics %v, want exactly %v", side, got.Metrics, names)
	}
	for i, n := range names {
		if v, ok := got.Metrics[n]; !ok || v != e.metrics[i] {
			t.Errorf("%s metrics.%s = %v (present %v), want %d", side, n, v, ok, e.metrics[i])
		}
	}
}

func TestSimScenarioJSON(t *testing.T) {
	cases := []struct {
		args        []string
		left, right expect
	}{
		{[]string{"--scenario", "cross-boundary-spike"},
			expect{"fixed-window", "AAARAAAR", []int64{820, 880, 940, -1, 1000, 1060, 1120, -1}, [6]int64{6, 2, 6, 3, 0, 2}},
			expect{"sliding-log", "AAARRRRA", []int64{820, 880, 940, -1, -1, -1, -1, 1850}, [6]int64{4, 4, 3, 0, 0, 3}}},
		{[]string{"--scenario", "prev-crowded-end"}, // E4
			expect{"sliding-counter", "AAAAAR", []int64{970, 980, 990, 1500, 1510, -1}, [6]int64{5, 1, 5, 2, 0, 3}},
			expect{"sliding-log", "AAARRR", []int64{970, 980, 990, -1, -1, -1}, [6]int64{3, 3, 3, 0, 0, 3}}},
		{[]string{"--scenario", "prev-crowded-start"}, // E3
			expect{"sliding-counter", "AAAARR", []int64{0, 10, 20, 1200, -1, -1}, [6]int64{4, 2, 3, 0, 0, 3}},
			expect{"sliding-log", "AAAAAA", []int64{0, 10, 20, 1200, 1220, 1240}, [6]int64{6, 0, 3, 0, 0, 3}}},
		{[]string{"--scenario", "instant-burst"}, // E6
			expect{"token-bucket", "AAAR", []int64{0, 10, 20, -1}, [6]int64{3, 1, 3, 0, 0, 2}},
			expect{"leaky-queue", "AAAR", []int64{0, 500, 1000, -1}, [6]int64{3, 1, 2, 0, 980, 3}}},
		{[]string{"--scenario", "instant-burst", "--capacity", "6"}, // E6, C = 6
			expect{"token-bucket", "AAAA", []int64{0, 10, 20, 30}, [6]int64{4, 0, 4, 1, 0, 2}},
			expect{"leaky-queue", "AAAA", []int64{0, 500, 1000, 1500}, [6]int64{4, 0, 2, 0, 1470, 4}}},
		{[]string{"--scenario", "instant-burst", "--left", "gcra"}, // E6: GCRA = token bucket
			expect{"gcra", "AAAR", []int64{0, 10, 20, -1}, [6]int64{3, 1, 3, 0, 0, 1}},
			expect{"leaky-queue", "AAAR", []int64{0, 500, 1000, -1}, [6]int64{3, 1, 2, 0, 980, 3}}},
		{[]string{"--scenario", "custom", "--arrivals", "0,10,20,1200,1220,1240", "--left", "sliding-counter"},
			expect{"sliding-counter", "AAAARR", []int64{0, 10, 20, 1200, -1, -1}, [6]int64{4, 2, 3, 0, 0, 3}},
			expect{"sliding-log", "AAAAAA", []int64{0, 10, 20, 1200, 1220, 1240}, [6]int64{6, 0, 3, 0, 0, 3}}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := simRun(t, append(append([]string{"sim"}, tc.args...), "--json")...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var got scenarioJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v in %s", err, out)
			}
			if got.Scenario != tc.args[1] {
				t.Errorf("scenario %q, want %q", got.Scenario, tc.args[1])
			}
			if !strings.HasPrefix(out, `{"scenario":`) {
				t.Errorf("output does not start with the scenario name: %.40s", out)
			}
			tc.left.check(t, "left", got.Left)
			tc.right.check(t, "right", got.Right)
		})
	}
}

func TestSimCostsJSON(t *testing.T) {
	out, _, code := simRun(t, "sim", "--algo", "token-bucket", "--arrivals", "0,0,500", "--costs", "3,1,1", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got simJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	expect{"token-bucket", "ARA", []int64{0, -1, 500}, [6]int64{2, 1, 2, 0, 0, 2}}.check(t, "run", got)
	if got.Requests[0]["cost"] != float64(3) {
		t.Errorf("cost %v, want 3", got.Requests[0]["cost"])
	}
}

func TestWorstJSON(t *testing.T) {
	out, errOut, code := simRun(t, "worst", "--algo", "sliding-counter", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got struct {
		Algorithm   string   `json:"algorithm"`
		Arrivals    []int64  `json:"arrivals"`
		MaxInWindow int      `json:"max_in_window"`
		Overshoot   int      `json:"overshoot"`
		Window      [2]int64 `json:"window"`
		Bound       string   `json:"bound"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Algorithm != "sliding-counter" || got.MaxInWindow != 6 || got.Overshoot != 3 ||
		got.Window != [2]int64{999, 1999} || !strings.HasPrefix(got.Bound, "2L = 6") {
		t.Errorf("worst --json: %+v", got)
	}

	out, _, code = simRun(t, "worst", "--algo", "all", "--json")
	var all []struct {
		Algorithm   string `json:"algorithm"`
		MaxInWindow int    `json:"max_in_window"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil {
		t.Fatalf("worst --algo all --json: exit %d, %s", code, out)
	}
	want := map[string]int{"fixed-window": 6, "fixed-window-ttl": 5, "sliding-log": 3, "sliding-counter": 6,
		"token-bucket": 4, "gcra": 4, "leaky-queue": 2}
	if len(all) != len(want) {
		t.Fatalf("%d results, want %d", len(all), len(want))
	}
	for _, r := range all {
		if want[r.Algorithm] != r.MaxInWindow {
			t.Errorf("%s: %d, want %d", r.Algorithm, r.MaxInWindow, want[r.Algorithm])
		}
	}
}

// TestSimBadInput: every bad input exits 2 with one line on stderr naming the
// flag and what it accepts, and prints nothing on stdout.
func TestSimBadInput(t *testing.T) {
	e1 := []string{"--arrivals", "820,880,940"}
	fw := append([]string{"--algo", "fixed-window"}, e1...)
	cases := []struct {
		args []string
		want []string // substrings of the stderr line
	}{
		{append([]string{"sim", "--algo", "leaky-bucket"}, e1...), []string{`--algo "leaky-bucket"`, "accepted one of fixed-window", "leaky-queue"}},
		{append([]string{"sim", "--window", "0"}, fw...), []string{"--window 0", "accepted an integer number of ms > 0"}},
		{append([]string{"sim", "--window", "-10"}, fw...), []string{"--window -10", "> 0"}},
		{append([]string{"sim", "--window", "1s"}, fw...), []string{`--window "1s"`, "integer number of ms"}},
		{append([]string{"sim", "--limit", "0"}, fw...), []string{"--limit 0", "accepted an integer >= 1"}},
		{append([]string{"sim", "--capacity", "0"}, fw...), []string{"--capacity 0", "accepted an integer >= 1"}},
		{append([]string{"sim", "--rate", "0"}, fw...), []string{"--rate 0", "accepted a finite number > 0"}},
		{append([]string{"sim", "--rate", "-2"}, fw...), []string{"--rate -2", "> 0"}},
		{append([]string{"sim", "--rate", "fast"}, fw...), []string{`--rate "fast"`, "> 0"}},
		{append([]string{"sim", "--subwindows", "0"}, fw...), []string{"--subwindows 0", "accepted an integer from 1"}},
		{[]string{"sim", "--algo", "sliding-log", "--arrivals", "820,700"}, []string{"--arrivals 700 after 820", "non-decreasing"}},
		{[]string{"sim", "--algo", "sliding-log", "--arrivals", "-5,10"}, []string{"--arrivals -5", "integers from 0 to 1e12"}},
		{[]string{"sim", "--algo", "sliding-log", "--arrivals", "0,2000000000000"}, []string{"--arrivals 2000000000000", "from 0 to 1e12"}},
		{append([]string{"sim", "--window", "9000000000000000"}, fw...), []string{"--window 9000000000000000", "at most 1e12"}},
		{[]string{"sim", "--algo", "sliding-log", "--arrivals", "1,,2"}, []string{`--arrivals "1,,2"`, "comma-separated"}},
		{[]string{"sim", "--algo", "sliding-log", "--arrivals", ""}, []string{`--arrivals ""`, "comma-separated"}},
		{append([]string{"sim", "--costs", "1,1"}, fw...), []string{"--costs (2 values)", "one cost per arrival (3 values)"}},
		{[]string{"sim", "--algo", "token-bucket", "--arrivals", "0", "--costs", "4"}, []string{"--costs 4", "from 1 to the capacity (3)"}},
		{[]string{"sim", "--algo", "fixed-window", "--arrivals", "0", "--costs", "0"}, []string{"--costs 0", "from 1 to the limit (3)"}},
		{[]string{"sim", "--scenario", "spike"}, []string{`--scenario "spike"`, "cross-boundary-spike, prev-crowded-end, prev-crowded-start, instant-burst, custom"}},
		{[]string{"sim", "--scenario", "instant-burst", "--left", "bucket"}, []string{`--left "bucket"`, "token-bucket"}},
		{[]string{"sim", "--scenario", "instant-burst", "--right", "x"}, []string{`--right "x"`, "gcra"}},
		{[]string{"sim", "--scenario", "instant-burst", "--rate", "0"}, []string{"--rate 0", "> 0"}},
		{[]string{"sim", "--scenario", "custom"}, []string{"--scenario custom needs --arrivals"}},
		{[]string{"sim", "--scenario", "instant-burst", "--arrivals", "1,2"}, []string{"--arrivals", "--scenario custom"}},
		{[]string{"sim", "--scenario", "instant-burst", "--algo", "gcra"}, []string{"--algo", "--left ALGO --right ALGO"}},
		{[]string{"sim", "--left", "gcra", "--algo", "gcra", "--arrivals", "1"}, []string{"--left and --right need --scenario", "cross-boundary-spike"}},
		{[]string{"sim", "--bogus", "1"}, []string{"unknown flag --bogus", "accepted --algo --arrivals --window"}},
		{[]string{"sim", "--window"}, []string{"--window needs a value", "accepted an integer number of ms"}},
		{[]string{"sim"}, []string{"missing --algo", "fixed-window"}},
		{[]string{"sim", "--algo", "gcra"}, []string{"missing --arrivals", "integers from 0"}},
		{append([]string{"sim", "extra"}, fw...), []string{`unexpected argument "extra"`, "accepted --algo"}},
		{[]string{"worst", "--algo", "nope"}, []string{`--algo "nope"`, "accepted all, one of fixed-window"}},
		{[]string{"worst"}, []string{"missing --algo", "all, fixed-window"}},
		{[]string{"worst", "--algo", "fixed-window", "--limit", "1000"}, []string{"--limit 1000", "at most 256"}},
		{[]string{"worst", "--algo", "gcra", "--window", "0"}, []string{"--window 0", "> 0"}},
		{[]string{"worst", "--arrivals", "1"}, []string{"unknown flag --arrivals", "accepted --algo --window"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := simRun(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
				t.Errorf("stderr is not one line: %q", errOut)
			}
			if !strings.HasPrefix(errOut, tc.args[0]+": ") {
				t.Errorf("stderr %q does not start with the command", errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

func TestSimHelp(t *testing.T) {
	for _, cmd := range []string{"sim", "worst"} {
		out, errOut, code := simRun(t, cmd, "--help")
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: tui "+cmd) {
			t.Errorf("%s --help: exit %d, stdout %.30q, stderr %q", cmd, code, out, errOut)
		}
	}
}

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

// TestSimBinary builds the real binary and checks its exit codes and JSON
// from outside, as a script would.
func TestSimBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tui")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "sim", "--scenario", "cross-boundary-spike", "--json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() != 0 {
		t.Fatalf("sim: %v, stderr %q", err, stderr.String())
	}
	var got scenarioJSON
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	expect{"fixed-window", "AAARAAAR", []int64{820, 880, 940, -1, 1000, 1060, 1120, -1}, [6]int64{6, 2, 6, 3, 0, 2}}.check(t, "left", got.Left)
	expect{"sliding-log", "AAARRRRA", []int64{820, 880, 940, -1, -1, -1, -1, 1850}, [6]int64{4, 4, 3, 0, 0, 3}}.check(t, "right", got.Right)

	out, err = exec.Command(bin, "sim", "--algo", "fixed-window", "--arrivals", "820,880,940,960,1000,1060,1120,1850", "--json").Output()
	if err != nil || string(out) != strings.ReplaceAll(e1FixedJSON, "\n", "")+"\n" {
		t.Errorf("sim --algo --json: %v\n%s", err, out)
	}

	bad := exec.Command(bin, "sim", "--algo", "fixed-window", "--arrivals", "5,1")
	var badOut, badErr bytes.Buffer
	bad.Stdout, bad.Stderr = &badOut, &badErr
	err = bad.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || badOut.Len() != 0 ||
		!strings.Contains(badErr.String(), "--arrivals") {
		t.Errorf("bad input: %v, stdout %q, stderr %q", err, badOut.String(), badErr.String())
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

// simRunStdin is simRun with stdin.
func simRunStdin(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	old := simStdin
	simStdin = strings.NewReader(stdin)
	defer func() { simStdin = old }()
	return simRun(t, args...)
}

func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "arrivals.txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSimArrivalsFile: a file (or stdin) of arrivals, one per line or
// comma-separated, with or without a cost column, replays exactly as the
// same numbers given to --arrivals and --costs.
func TestSimArrivalsFile(t *testing.T) {
	e1 := "820,880,940,960,1000,1060,1120,1850"
	for _, tc := range []struct {
		file  string
		flags []string // the same input on the command line
	}{
		{"820\n880\n940\n960\n1000\n1060\n1120\n1850\n", []string{"--arrivals", e1}},
		{e1, []string{"--arrivals", e1}},
		{"# E1\n820, 880,940\r\n\n960,1000\n  1060\n1120,1850", []string{"--arrivals", e1}},
		{"0 3\n0\t1\n500 1\n", []string{"--arrivals", "0,0,500", "--costs", "3,1,1"}},
	} {
		for _, mode := range [][]string{{"--algo", "token-bucket", "--json"}, {"--algo", "sliding-log"},
			{"--scenario", "custom", "--left", "gcra", "--right", "leaky-queue", "--json"}} {
			want, _, code := simRun(t, append(append([]string{"sim"}, mode...), tc.flags...)...)
			if code != 0 {
				t.Fatalf("%v %v: exit %d", mode, tc.flags, code)
			}
			got, errOut, code := simRun(t, append([]string{"sim", "--arrivals-file", writeFile(t, tc.file)}, mode...)...)
			if code != 0 || got != want {
				t.Errorf("file %q %v: exit %d %s\n got %.400s\nwant %.400s", tc.file, mode, code, errOut, got, want)
			}
			got, _, _ = simRunStdin(t, tc.file, append([]string{"sim", "--arrivals-file", "-"}, mode...)...)
			if got != want {
				t.Errorf("stdin %q %v differs from the flags", tc.file, mode)
			}
		}
	}
}

// TestSimTraffic: --traffic generates chapter 05's shapes, --seed picks the
// sequence, and a hundred thousand requests need no file.
func TestSimTraffic(t *testing.T) {
	decode := func(args ...string) simJSON {
		t.Helper()
		out, errOut, code := simRun(t, append([]string{"sim", "--json"}, args...)...)
		var got simJSON
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		return got
	}
	want, _ := lab.PoissonArrivals(1000, 100_000, 1)
	got := decode("--algo", "gcra", "--traffic", "poisson:1000:100s")
	if len(got.Requests) != len(want) || got.Requests[len(want)-1]["arrival_ms"] != float64(want[len(want)-1]) {
		t.Fatalf("poisson:1000:100s: %d requests, want %d", len(got.Requests), len(want))
	}
	if a := decode("--algo", "gcra", "--traffic", "poisson:50:2000", "--seed", "1"); len(a.Requests) != len(decode("--algo", "gcra", "--traffic", "poisson:50:2s").Requests) {
		t.Error("--seed 1 is the default, and 2000 is 2s")
	}
	a := decode("--algo", "gcra", "--traffic", "poisson:50:2s", "--seed", "9")
	b := decode("--algo", "gcra", "--traffic", "poisson:50:2s", "--seed", "10")
	if fmt.Sprint(a.Requests) == fmt.Sprint(b.Requests) {
		t.Error("two seeds gave the same traffic")
	}
	s := decode("--algo", "fixed-window", "--traffic", "steady:4:1s")
	if len(s.Requests) != 4 || s.Requests[3]["arrival_ms"] != float64(750) || s.Metrics["allowed"] != 3 {
		t.Errorf("steady:4:1s: %v %v", s.Requests, s.Metrics)
	}
	bursts := decode("--algo", "token-bucket", "--traffic", "bursts:5:200:10s", "--seed", "2")
	if n := len(bursts.Requests); n%5 != 0 || n == 0 {
		t.Errorf("bursts of 5: %d requests", n)
	}
}

// TestSimExplainJSON: --explain adds each request's state and why to the
// JSON; the numbers are those of plain --json.
func TestSimExplainJSON(t *testing.T) {
	plain, _, _ := simRun(t, "sim", "--scenario", "instant-burst", "--json")
	out, errOut, code := simRun(t, "sim", "--scenario", "instant-burst", "--json", "--explain")
	var got, want struct {
		Left, Right struct {
			Requests []map[string]any `json:"requests"`
			Metrics  map[string]int   `json:"metrics"`
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || json.Unmarshal([]byte(plain), &want) != nil {
		t.Fatalf("exit %d %s: %s", code, errOut, out)
	}
	q := got.Right.Requests[2]
	if q["state"] != "TAT 1500, queue [500 1000]" || q["why"] != "TAT - now = 980 <= tau 1000: queued, departs at 1000" {
		t.Errorf("leaky-queue request 3: %v", q)
	}
	if got.Left.Requests[3]["state"] != "tokens 0.06" || fmt.Sprint(got.Left.Metrics) != fmt.Sprint(want.Left.Metrics) {
		t.Errorf("token-bucket: %v %v", got.Left.Requests[3], got.Left.Metrics)
	}
	for i, r := range got.Right.Requests {
		delete(r, "state")
		delete(r, "why")
		if fmt.Sprint(r) != fmt.Sprint(want.Right.Requests[i]) {
			t.Errorf("request %d: %v, want %v", i+1, r, want.Right.Requests[i])
		}
	}
}

// TestSimBadArrivalsFile: a bad file is one stderr line naming the file,
// the line and the value, with at most 40 characters of the line around it.
func TestSimBadArrivalsFile(t *testing.T) {
	long := strings.TrimSuffix(strings.Repeat("100,", 40), ",")
	for _, tc := range []struct {
		file string
		args []string
		want []string
	}{
		{"820\n88x\n940", nil, []string{"line 2: \"88x\" is not an integer", "accepted a file (- for stdin)"}},
		{"820,880,,940", nil, []string{"line 1: an empty item in \"820,880,,940\""}},
		{"10\n5\n", nil, []string{"line 2: 5 after 10"}},
		{"-5\n", nil, []string{"line 1: -5 is outside 0 to 1e12"}},
		{"5 1\n6\n", nil, []string{"line 2: no cost, but line 1 has one"}},
		{"5\n6 2\n", nil, []string{"line 2: a cost, but line 1 has none"}},
		{"5 0\n", nil, []string{"line 1: cost \"0\" is not an integer >= 1"}},
		{"5 1 2\n", nil, []string{"line 1: \"5 1 2\" is more than an arrival and a cost"}},
		{"5 1,6 1\n", nil, []string{"line 1: \"5 1\" is more than an arrival", "in \"5 1,6 1\""}},
		{"0 1\n0 4\n", []string{"--algo", "token-bucket"}, []string{"line 2: cost 4", "from 1 to the capacity (3) for token-bucket"}},
		{"0 1\n0 3\n", []string{"--scenario", "custom", "--left", "gcra", "--limit", "2"}, []string{"line 2: cost 3", "the limit (2) for sliding-log"}},
		{"0 1\n", []string{"--algo", "gcra", "--costs", "1"}, []string{"--costs cannot be combined with the cost column"}},
		{"\n# nothing\n", nil, []string{"(no arrivals)"}},
		{long + ",9x," + long, nil, []string{`line 1: "9x" is not an integer in "..`, `,100,9x,100,`}},
	} {
		args := tc.args
		if args == nil {
			args = []string{"--algo", "gcra"}
		}
		path := writeFile(t, tc.file)
		if len(path) > 40 {
			path = filepath.Join(os.TempDir(), fmt.Sprintf("arr%d.txt", os.Getpid()))
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(path)
		}
		out, errOut, code := simRun(t, append([]string{"sim", "--arrivals-file", path}, args...)...)
		prefix := "sim: invalid --arrivals-file " + path + " "
		if slices.Contains(args, "--costs") {
			prefix = "sim: --costs"
		}
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, prefix) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.file, code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: stderr %q lacks %q", tc.file, errOut, w)
			}
		}
		if excerpt := strings.SplitN(errOut, " in \"", 2); len(excerpt) == 2 && len(strings.SplitN(excerpt[1], "\"", 2)[0]) > 44 {
			t.Errorf("%q: excerpt longer than 40 characters: %q", tc.file, errOut)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--algo", "gcra", "--arrivals-file", filepath.Join(t.TempDir(), "none")}, "accepted a readable file"},
		{[]string{"sim", "--algo", "gcra", "--arrivals", "1", "--traffic", "poisson:1:1s"}, "--arrivals cannot be combined with --traffic"},
		{[]string{"sim", "--algo", "gcra", "--traffic", "poisson:1:1s", "--arrivals-file", "-"}, "--arrivals-file cannot be combined with --traffic"},
		{[]string{"sim", "--algo", "gcra", "--traffic", "poisson:fast:1s"}, `invalid --traffic "poisson:fast:1s": accepted poisson:RATE:DURATION`},
		{[]string{"sim", "--algo", "gcra", "--traffic", "wave:1:1s"}, `invalid --traffic "wave:1:1s"`},
		{[]string{"sim", "--algo", "gcra", "--traffic", "poisson:1e9:1h"}, "at most 1e7 requests"},
		{[]string{"sim", "--algo", "gcra", "--traffic", "poisson:1:0"}, "a duration from 1 ms"},
		{[]string{"sim", "--algo", "gcra", "--traffic", "steady:1:1s", "--seed", "2"}, "--seed needs --traffic poisson"},
		{[]string{"sim", "--algo", "gcra", "--arrivals", "1", "--seed", "x"}, `invalid --seed "x"`},
		{[]string{"sim", "--algo", "gcra", "--arrivals", "1", "--explain"}, "--explain needs --json"},
		{[]string{"sim", "--scenario", "instant-burst", "--traffic", "poisson:1:1s"}, "--traffic cannot change --scenario instant-burst"},
		{[]string{"sim", "--scenario", "custom"}, "--scenario custom needs --arrivals (or --arrivals-file, --traffic)"},
		{[]string{"sim", "--algo", "gcra"}, "missing --arrivals (or --arrivals-file, --traffic)"},
	} {
		out, errOut, code := simRun(t, tc.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want it to say %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
