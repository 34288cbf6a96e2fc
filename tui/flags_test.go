package main

import (
	"strings"
	"testing"
)

// TestCLIFlagMistakes: the mistakes the standard flag package would let
// through silently (a flag given twice keeps the last) or word in its own
// terms (a missing value, a bad boolean) exit 2 with one stderr line that
// names the flag and what it accepts, on every headless command.
func TestCLIFlagMistakes(t *testing.T) {
	fw := []string{"--algo", "fixed-window", "--arrivals", "1,2"}
	cases := []struct {
		args []string
		want []string
	}{
		{append([]string{"sim", "--algo", "sliding-log"}, fw...), []string{`--algo given twice ("sliding-log", then "fixed-window")`, "accepted once"}},
		{append([]string{"sim", "--limit", "5", "--limit", "6"}, fw...), []string{"--limit given twice", "accepted once"}},
		{append([]string{"sim", "--json", "--json"}, fw...), []string{"--json given twice", "accepted once"}},
		{append([]string{"sim", "--json=maybe"}, fw...), []string{`invalid --json "maybe"`, "accepted true or false"}},
		{[]string{"sim", "--algo", "fixed-window", "--arrivals"}, []string{"--arrivals needs a value", "accepted integers from 0 to 1e12"}},
		{[]string{"sim", "--scenario", "instant-burst", "--scenario", "prev-crowded-end"}, []string{"--scenario given twice"}},
		{[]string{"sim", "--\nx"}, []string{`unknown flag "--\nx"`, "accepted --algo"}},
		{[]string{"worst", "--algo", "gcra", "--algo", "all"}, []string{"--algo given twice"}},
		{[]string{"worst", "--algo"}, []string{"--algo needs a value", "accepted all, or one of fixed-window"}},
		{[]string{"prefetch", "--nodes", "2", "--nodes", "3"}, []string{"--nodes given twice"}},
		{[]string{"prefetch", "--batch"}, []string{"--batch needs a value", "accepted an integer from 1 to"}},
		{[]string{"prefetch", "--json=maybe"}, []string{`invalid --json "maybe"`, "accepted true or false"}},
		{[]string{"prefetch", "--per-node", "3", "--order", "1,2"}, []string{"--per-node cannot be combined with --order"}},
		{[]string{"drill", "--n", "1", "--n", "2"}, []string{"--n given twice"}},
		{[]string{"drill", "--chapter", ""}, []string{`invalid --chapter ""`, "accepted one of 01"}},
		{[]string{"drill", "--width"}, []string{"--width needs a value", "accepted an integer from 40 to 200"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := simRun(t, tc.args...)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, tc.args[0]+": ") {
				t.Errorf("stderr is not one line starting with the command: %q", errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}
