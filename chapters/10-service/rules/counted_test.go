package rules

import "testing"

// TestCounted: the entries a counter is named by. An entry a
// share_threshold wildcard took counts under the wildcard's value, with
// the reference's own trimming (the wildcard's name less "key_": a
// key-only "k*" keeps its whole name); a wildcard without it, or a value
// matched exactly, keeps the request's value.
func TestCounted(t *testing.T) {
	d := loadDomain(t, "../peer/rules", "edge")
	k := loadDomain(t, writeRules(t, "domain: k\ndescriptors:\n  - key: k*\n    share_threshold: true\n    rate_limit: {unit: hour, requests_per_unit: 1}\n"), "k")
	for _, tc := range []struct {
		d        *Domain
		kv, want []string
	}{
		{d, []string{"file", "f/3"}, []string{"file", "f/*"}},
		{d, []string{"file", "f/*"}, []string{"file", "f/*"}},
		{d, []string{"dir", "d/1", "user", "u0"}, []string{"dir", "d/*", "user", "u0"}},
		{d, []string{"dir", "d/1", "obj", "o/2"}, []string{"dir", "d/*", "obj", "o/*"}},
		{d, []string{"bulk", "b/5"}, []string{"bulk", "b/*"}},
		{d, []string{"path", "/api/v1/items/2"}, []string{"path", "/api/v1/items/2"}},
		{d, []string{"region", "r1", "zone", "a0"}, []string{"region", "r1", "zone", "a0"}},
		{k, []string{"k", "v"}, []string{"k", "k*"}},
	} {
		es := entries(tc.kv...)
		if got := show(tc.d.Counted(es)); got != show(entries(tc.want...)) {
			t.Errorf("[%s] counted as [%s], want [%s]", show(es), got, show(entries(tc.want...)))
		}
		if show(es) != show(entries(tc.kv...)) {
			t.Errorf("[%s]: the request's entries were changed", show(es))
		}
	}
}
