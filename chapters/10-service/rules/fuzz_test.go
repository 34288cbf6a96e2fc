package rules

import (
	"errors"
	"testing"
)

// FuzzRules: any bytes as a rules file load or are refused with a
// *RuleError on one line; none panics, and a loaded set matches any
// descriptor without panicking.
//
//	go test -run '^$' -fuzz FuzzRules -fuzztime 30s ./chapters/10-service/rules/
func FuzzRules(f *testing.F) {
	f.Add([]byte(e32Rules), "api_key", "a")
	f.Add([]byte("domain: d\ndescriptors:\n  - key: k\n    value: v*\n    descriptors:\n      - key: x\n        rate_limit: {unit: second, requests_per_unit: 1}\n"), "k", "vv")
	f.Fuzz(func(t *testing.T, b []byte, key, value string) {
		set := &RuleSet{domains: map[string]*Domain{}}
		err := set.add("f.yaml", b)
		if err != nil {
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("%T %v, want a *RuleError", err, err)
			}
			return
		}
		for _, d := range set.domains {
			d.Match([]Entry{{key, value}, {value, key}})
			d.limitsToCheck([][]Entry{{{key, value}}, {{value, key}}})
		}
	})
}
