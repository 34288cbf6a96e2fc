// Command benchratio reads `go test -bench` output on stdin, passes it
// through, and then prints each package's benchmarks as a table of ns/op
// beside the package's reference, the benchmark whose name holds
// "XTimeRate" (golang.org/x/time/rate on the same clock in the same run):
// each one's time over the reference's, below 1.00 faster. `make bench`
// pipes into it. It exits 1 if the output holds a FAIL line, so the pipe
// keeps the tests' verdict.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

type result struct {
	name string
	ns   float64
}

func main() {
	if report(os.Stdin, os.Stdout) {
		os.Exit(1)
	}
}

// report copies in to out, then writes the tables; it reports whether the
// output held a failure.
func report(in io.Reader, out io.Writer) (failed bool) {
	var pkgs []string
	byPkg := map[string][]result{}
	var pending []result // benchmarks seen before their package's "ok" line
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(out, line)
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && (f[0] == "FAIL" || f[0] == "--- FAIL:"):
			failed = true
		case len(f) >= 2 && f[0] == "ok":
			pkgs = append(pkgs, f[1])
			byPkg[f[1]], pending = pending, nil
		case len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") && f[3] == "ns/op":
			if ns, err := strconv.ParseFloat(f[2], 64); err == nil {
				name := strings.TrimPrefix(f[0], "Benchmark")
				if i := strings.LastIndex(name, "-"); i > 0 {
					name = name[:i] // the -GOMAXPROCS suffix
				}
				pending = append(pending, result{name, ns})
			}
		}
	}
	for _, p := range pkgs {
		rs := byPkg[p]
		ref := 0.0
		for _, r := range rs {
			if strings.Contains(r.name, "XTimeRate") {
				ref = r.ns
			}
		}
		if len(rs) == 0 || ref == 0 {
			continue
		}
		fmt.Fprintf(out, "\n%s, against x/time/rate in the same run\n\n| benchmark | ns/op | vs x/time/rate |\n|---|---|---|\n", p)
		for _, r := range rs {
			fmt.Fprintf(out, "| %s | %.1f | %.2fx |\n", r.name, r.ns, r.ns/ref)
		}
	}
	return failed
}
