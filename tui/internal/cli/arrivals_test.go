package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

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
