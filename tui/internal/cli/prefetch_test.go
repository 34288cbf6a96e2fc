package cli

import (
	"bytes"
	"encoding/json"
	"runtime/metrics"
	"strings"
	"testing"
)

// TestE13_PrefetchJSON checks `prefetch --json` against CONTRACT-CLI.md §4 for the lab
// default (E13), field by field, and batch 1.
func TestE13_PrefetchJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"prefetch", "--nodes", "4", "--per-node", "2", "--limit", "20", "--batch", "8", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	var want map[string]any
	spec := `{"central":{"allowed":8,"rejected":0,"round_trips":8,"wait_ms":8},
	 "prefetch":{"allowed":6,"rejected":2,"round_trips":4,"wait_ms":4,"central_remaining":0,
	             "stranded":14,"fewer_than_central":2,"rejects_while_stranded":2},
	 "nodes":[{"node":1,"borrowed":8,"used":2,"stranded":6,"rejected":0},
	          {"node":2,"borrowed":8,"used":2,"stranded":6,"rejected":0},
	          {"node":3,"borrowed":4,"used":2,"stranded":2,"rejected":0},
	          {"node":4,"borrowed":0,"used":0,"stranded":0,"rejected":2}]}`
	if err := json.Unmarshal([]byte(spec), &want); err != nil {
		t.Fatal(err)
	}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Fatalf("prefetch --json\n got %s\nwant %s", g, w)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr not empty: %q", errOut.String())
	}

	// The defaults are the lab default: no flags gives the same answer.
	var def bytes.Buffer
	run([]string{"prefetch", "--json"}, &def, &errOut)
	if def.String() != out.String() {
		t.Errorf("defaults differ from E13:\n%s\n%s", def.String(), out.String())
	}

	out.Reset()
	if code := run([]string{"prefetch", "--batch", "1", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("batch 1: exit %d", code)
	}
	var one prefetchJSON
	if err := json.Unmarshal(out.Bytes(), &one); err != nil {
		t.Fatal(err)
	}
	p := one.Prefetch
	if p.Allowed != 8 || p.RoundTrips != 8 || p.Stranded != 0 || p.RejectsWhileStranded != 0 || one.Central.RoundTrips != 8 {
		t.Errorf("batch 1: %+v central %+v; want 8 allowed, 8 round trips, nothing stranded", p, one.Central)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v) // maps marshal with sorted keys: a canonical form
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestE12_PrefetchOrderTable runs E12 through --order and reads the table.
func TestE12_PrefetchOrderTable(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"prefetch", "--nodes", "2", "--limit", "6", "--batch", "4", "--order", "1,2,1,2,2"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"prefetch: 2 nodes, 5 requests (--order)\nlimit 6, batch 4, rtt 1 ms\n",
		"   1         4     2         2         0  ##oo\n",
		"   2         2     2         0         1  ##x\n",
		"knows empty, reject *",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
}

// TestPrefetchTableFits80Columns: the readable output never needs a wider
// terminal, even with many nodes and long runs.
func TestPrefetchTableFits80Columns(t *testing.T) {
	for _, args := range [][]string{
		{"prefetch"},
		{"prefetch", "--batch", "1"},
		{"prefetch", "--nodes", "100", "--per-node", "100", "--limit", "100000", "--batch", "1000", "--rtt", "250"},
		{"prefetch", "--nodes", "100", "--per-node", "100", "--limit", "1000000", "--batch", "1000000", "--rtt", "60000"},
		{"prefetch", "--nodes", "3", "--per-node", "3333", "--limit", "1000000", "--batch", "1", "--rtt", "60000"},
		{"prefetch", "--nodes", "2", "--per-node", "5000", "--limit", "9999", "--batch", "7000"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%v: line of %d columns: %q", args, n, line)
			}
		}
	}
	var out, errOut bytes.Buffer
	run([]string{"prefetch"}, &out, &errOut)
	for _, want := range []string{
		"central           8         0            8          8         -",
		"prefetch          6         2            4          4        14",
		"   1         8     2         6         0  ##oooooo\n",
		"   4         0     0         0         2  xx\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("E13 table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestPrefetchBadInput: every bad flag exits 2 with one line on stderr that
// names the flag and what it accepts, and prints nothing on stdout.
func TestPrefetchBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want []string // substrings of the stderr line
	}{
		{[]string{"--nodes", "0"}, []string{"--nodes 0", "accepted an integer from 1 to 100"}},
		{[]string{"--nodes", "-3"}, []string{"--nodes -3", "from 1 to"}},
		{[]string{"--nodes", "four"}, []string{"--nodes", `"four"`, "accepted an integer"}},
		{[]string{"--per-node", "-1"}, []string{"--per-node -1", "accepted an integer from 0"}},
		{[]string{"--limit", "-1"}, []string{"--limit -1", "accepted an integer from 0 to 1000000"}},
		{[]string{"--batch", "0"}, []string{"--batch 0", "accepted an integer from 1 to 1000000"}},
		{[]string{"--batch", "1.5"}, []string{"--batch", "accepted an integer from 1 to"}},
		{[]string{"--order", "1,2,5"}, []string{"--order 5", "node numbers from 1 to 4"}},
		{[]string{"--nodes", "2", "--order", "0,1"}, []string{"--order 0", "node numbers from 1 to 2"}},
		{[]string{"--order", "1,,2"}, []string{"--order", "comma-separated list of node numbers"}},
		{[]string{"--order", ""}, []string{"--order", "comma-separated list"}},
		{[]string{"--rtt", "-1"}, []string{"--rtt -1", "accepted an integer number of ms from 0 to 60000"}},
		{[]string{"--window", "5"}, []string{"-window", "accepted --nodes --per-node --limit --batch --order --rtt --json"}},
		{[]string{"extra"}, []string{`"extra"`, "accepted --nodes"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"prefetch"}, tc.args...), &out, &errOut)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out.Len() != 0 {
				t.Errorf("stdout not empty: %q", out.String())
			}
			line := errOut.String()
			if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
				t.Errorf("stderr is not one line: %q", line)
			}
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("stderr %q lacks %q", line, w)
				}
			}
		})
	}
}

func TestPrefetchHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"prefetch", "--help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "--batch") {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
}

// TestPrefetchHugePerNode: --per-node near the int64 range made nodes ×
// per-node wrap: 2^63 − 1 panicked (a negative slice capacity), 2^62 ran out
// of memory building 2^64 mod 2^64 = 0 … requests. Both are bad input now, told at
// once, naming the bound and why it is there. "At once" is measured in bytes
// allocated, which no scheduler changes: refused before any replay is built,
// a run allocates kilobytes (the wrapped sizes asked for gigabytes).
func TestPrefetchHugePerNode(t *testing.T) {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocated := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	for _, per := range []string{"9223372036854775807", "4611686018427387904", "2501", "99999999999999999999"} {
		before := allocated()
		var out, errOut bytes.Buffer
		code := run([]string{"prefetch", "--per-node", per}, &out, &errOut)
		if code != 2 || out.Len() != 0 || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("--per-node %s: exit %d, stdout %q, stderr %q; want 2, nothing, one line", per, code, out.String(), errOut.String())
		}
		if !strings.Contains(errOut.String(), "--per-node") || !strings.Contains(errOut.String(), "from 0 to 2500") &&
			!strings.Contains(errOut.String(), "from 0 to 10000 / --nodes") {
			t.Errorf("--per-node %s: %q does not name the flag and its bound", per, errOut.String())
		}
		if grew := allocated() - before; grew > 1<<20 {
			t.Errorf("--per-node %s: %d bytes allocated before the refusal, want under 1 MiB", per, grew)
		}
	}
	var out, errOut bytes.Buffer
	run([]string{"prefetch", "--per-node", "9223372036854775807"}, &out, &errOut)
	if want := "prefetch: invalid --per-node 9223372036854775807: accepted an integer from 0 to 2500 " +
		"(at most 10000 requests in all, to keep the replay small)\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}

// TestPrefetchLongBadListIsExcerpted: a bad --order of a million items was
// echoed back whole, one 6.9 MB stderr line. Now a list over the bound is
// refused by its length before it is read, a bad item is quoted alone, and a
// long value shows its first 40 characters.
func TestPrefetchLongBadListIsExcerpted(t *testing.T) {
	million := strings.Repeat("1,2,", 500_000-1) + "1,x"
	long := strings.Repeat("1,", 9_000) + strings.Repeat("7", 100_000)
	cases := []struct {
		order string
		want  string
	}{
		{million, `prefetch: invalid --order (1000000 entries): accepted at most 10000 node numbers, to keep the replay small`},
		{"1,2,x,4", `prefetch: invalid --order "x" (item 3): accepted ` + orderAccept},
		{long, `prefetch: invalid --order "7777777777777777777777777777777777777777"… (100000 bytes) (item 9001): accepted ` + orderAccept},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		if code := run([]string{"prefetch", "--order", tc.order}, &out, &errOut); code != 2 || out.Len() != 0 {
			t.Errorf("exit %d, stdout %q", code, out.String())
		}
		if got := strings.TrimSuffix(errOut.String(), "\n"); got != tc.want {
			t.Errorf("stderr (%d bytes)\n got %.300q\nwant %q", errOut.Len(), got, tc.want)
		}
	}
}
