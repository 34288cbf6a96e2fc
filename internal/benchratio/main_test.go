package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		failed         bool
	}{
		{"ratios per package", "BenchmarkTokenBucket-2 \t 100 \t 18.3 ns/op \t 0 B/op\nBenchmarkXTimeRate-2 \t 100 \t 58.9 ns/op\nok  \tch04\t1.0s\n" +
			"BenchmarkFixedWindow-2 \t 100 \t 10.0 ns/op\nBenchmarkReferenceXTimeRate-2 \t 100 \t 40.0 ns/op\nok  \tch02\t1.0s\n",
			"| TokenBucket | 18.3 | 0.31x |\n| XTimeRate | 58.9 | 1.00x |\n\nch02, against x/time/rate in the same run\n\n| benchmark | ns/op | vs x/time/rate |\n|---|---|---|\n| FixedWindow | 10.0 | 0.25x |\n| ReferenceXTimeRate | 40.0 | 1.00x |\n", false},
		{"a failure", "BenchmarkA-2 \t 100 \t 10.0 ns/op\n--- FAIL: TestX\nFAIL\tch02\t0.1s\n", "--- FAIL: TestX\nFAIL\tch02\t0.1s\n", true},
		{"no reference, no table", "BenchmarkA-2 \t 100 \t 10.0 ns/op\nok  \tch02\t1.0s\n", "ok  \tch02\t1.0s\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			if failed := report(strings.NewReader(tc.in), &out); failed != tc.failed {
				t.Errorf("failed = %v, want %v", failed, tc.failed)
			}
			if !strings.HasSuffix(out.String(), tc.want) {
				t.Errorf("output ends\n%q\nwant it to end\n%q", out.String(), tc.want)
			}
		})
	}
}
