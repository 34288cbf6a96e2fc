package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// simRun runs the command line in-process and returns stdout, stderr and the
// exit code.
func simRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// runCmd is simRun of the command cmd with args.
func runCmd(t *testing.T, cmd string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return simRun(t, append([]string{cmd}, args...)...)
}

// The CONTRACT-CLI.md §4 example, whole: E1 through the fixed window.
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

// simJSON mirrors the CONTRACT-CLI.md §4 shape for decoding; pointers tell a JSON null
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
