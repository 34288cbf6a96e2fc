package cli

import (
	"bytes"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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

// TestCLIErrorLinesQuoteAnExcerpt: whatever a bad value's size, the error
// line quotes at most its first 40 characters and says how long it was; on
// every headless command and every path an error takes (a malformed value, a
// value given twice, an unknown flag, a stray argument, bad flag syntax, a
// subcommand's own check).
func TestCLIErrorLinesQuoteAnExcerpt(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"prefetch", "--nodes", big}, `prefetch: invalid --nodes "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted an integer from 1 to 100`},
		{[]string{"prefetch", "--rtt", "1", "--rtt", big}, `prefetch: --rtt given twice ("1", then "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes)): accepted once`},
		{[]string{"prefetch", "--json=" + big}, `prefetch: invalid --json "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted true or false (--json alone means true)`},
		{[]string{"prefetch", "--" + big}, `prefetch: unknown flag "--xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048578 bytes): accepted --nodes --per-node --limit --batch --order --rtt --json`},
		{[]string{"prefetch", big}, `prefetch: unexpected argument "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted --nodes --per-node --limit --batch --order --rtt --json`},
		{[]string{"prefetch", "---" + big}, `prefetch: bad flag syntax "---xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048579 bytes): accepted --nodes --per-node --limit --batch --order --rtt --json`},
		{[]string{"drill", "--chapter", big}, `drill: invalid --chapter "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted one of `},
		{[]string{"sim", "--limit", big}, `sim: invalid --limit "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted an integer >= 1`},
		{[]string{"worst", "--window", big}, `worst: invalid --window "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (1048576 bytes): accepted an integer number of ms > 0`},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		line := errOut.String()
		if code != 2 || out.Len() != 0 || strings.Count(line, "\n") != 1 || len(line) > maxErrLine+1 {
			t.Errorf("%s …: exit %d, stdout %d bytes, stderr %d bytes in %d lines; want 2, 0, one short line",
				tc.args[0], code, out.Len(), len(line), strings.Count(line, "\n"))
		}
		if !strings.HasPrefix(line, tc.want) {
			t.Errorf("stderr\n got %.300q\nwant %q…", line, tc.want)
		}
	}
}

// FuzzCLI sends arbitrary command lines to every headless subcommand (sim,
// worst, prefetch, drill) and checks what any input must give: no panic;
// exit 0 with an empty stderr, or exit 2 with an empty stdout and one short
// stderr line; time and memory bounded (10 s, and 256 MB of heap plus a
// small multiple of the input's size; the slowest valid run, worst --algo
// all at its largest limit, takes 0.2 s, a few seconds under the fuzzer's
// instrumentation). The time bound is for the fuzzer, which finds inputs
// whose work explodes. The seeds, all that `go test` runs, are cheap, so
// that there 10 s only limits a hang: worst --algo all runs at limit 4
// (0.2 s under -race; at limit 64 it took 1.1 s, and 11.7 s on a busy
// 2-core machine). The search's cost at its largest is BenchmarkWorst's.
// --arrivals-file is left out: it reads a file or stdin, which is not the
// parser's business. Run it with -fuzzminimizetime 2s: minimising a slow
// worst input for the default 60 s would take the whole budget.
func FuzzCLI(f *testing.F) {
	for _, seed := range []string{
		"prefetch", "prefetch --json", "prefetch --per-node 9223372036854775807", "prefetch --per-node 4611686018427387904",
		"prefetch --nodes 100 --per-node 100 --limit 1000000000 --batch 1000000000 --rtt 60000",
		"prefetch --nodes 3 --order 1,2,3,x", "prefetch --order 1,,2", "prefetch --nodes=2 --order=2,2,1 --json",
		"prefetch --limit -1", "prefetch --batch 0", "prefetch --rtt 1 --rtt 2", "prefetch extra",
		"sim --algo fixed-window --arrivals 820,880,940", "sim --scenario cross-boundary-spike --json",
		"sim --algo gcra --arrivals 0,0,0 --costs 1,2,3 --capacity 3", "sim --algo sliding-log --arrivals 5,4",
		"sim --algo token-bucket --rate NaN --arrivals 1", "sim --window 0 --algo fixed-window --arrivals 1",
		"worst --algo gcra", "worst --algo all --limit 4", "worst --algo fixed-window --limit 1000000000",
		"drill --n 1", "drill --chapter 06 --width 40", "drill --seed 18446744073709551615 --shuffle",
		"drill --width 1000", "--help", "-h", "--json=maybe", "--",
	} {
		cmd, rest, _ := strings.Cut(seed, " ")
		f.Add(cmd, rest)
	}
	commands := []string{"sim", "worst", "prefetch", "drill"}
	f.Fuzz(func(t *testing.T, cmd, line string) {
		if !slices.Contains(commands, cmd) {
			cmd = commands[len(cmd)%len(commands)]
		}
		args := []string{cmd}
		if line != "" {
			args = append(args, strings.Split(line, " ")...)
		}
		if strings.Contains(line, "arrivals-file") {
			return
		}
		var out, errOut bytes.Buffer
		peak := watchHeap()
		start := time.Now()
		code := run(args, &out, &errOut)
		took := time.Since(start)
		grew := peak()
		switch code {
		case 0:
			if errOut.Len() != 0 {
				t.Fatalf("%q: exit 0 with stderr %.200q", args, errOut.String())
			}
		case 2:
			e := errOut.String()
			if out.Len() != 0 || strings.Count(e, "\n") != 1 || !strings.HasSuffix(e, "\n") || len(e) > maxErrLine+1 {
				t.Fatalf("%q: exit 2 with stdout %d bytes and stderr (%d bytes) %.300q; want one short line",
					args, out.Len(), len(e), e)
			}
		default:
			t.Fatalf("%q: exit %d (stderr %.200q); want 0 or 2", args, code, errOut.String())
		}
		if out.Len() > 1<<20 {
			t.Fatalf("%q: %d bytes of output", args, out.Len())
		}
		if took > 10*time.Second {
			t.Fatalf("%q took %v", args, took)
		}
		// The heap sample includes garbage not yet collected, so the bound is
		// loose; the inputs it is for (2^62 requests) need gigabytes.
		if limit := 256<<20 + 64*uint64(len(line)); grew > limit {
			t.Fatalf("%q: the live heap grew by %d MB", args, grew>>20)
		}
	})
}

// watchHeap samples the live heap every millisecond until the function it
// returns is called, which reports the largest growth seen over the heap
// at the start.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}
