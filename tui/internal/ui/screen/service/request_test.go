package service

import (
	"fmt"
	"testing"
)

// The composer's descriptors: entries split at the first '=', a comma
// between entries, ';' between descriptors, blanks trimmed; an entry with
// no key is refused with a line that says so.
func TestParseDescriptors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"api_key=alice", "[[[api_key alice]]]"},
		{" path = /login , remote_address=10.0.0.1 ; plan=free ;", "[[[path /login] [remote_address 10.0.0.1]] [[plan free]]]"},
		{"q=a=b", "[[[q a=b]]]"},
		{"flag", "[[[flag ]]]"},
		{"=x", `error: the entry "=x" has no key: write key=value`},
		{" ; ", "error: no descriptor: write at least one key=value"},
	}
	for _, tc := range cases {
		got, err := parseDescriptors(tc.in)
		s := fmt.Sprint(got)
		if err != nil {
			s = "error: " + err.Error()
		}
		if s != tc.want {
			t.Errorf("parseDescriptors(%q) = %s, want %s", tc.in, s, tc.want)
		}
	}
}

// Traffic over several keys gives the first descriptor's last value a
// suffix per key; one key sends the value as written.
func TestRequestPerKey(t *testing.T) {
	c := composed{domain: "api", hits: 2, descs: [][][2]string{{{"path", "/login"}, {"user", "u"}}, {{"plan", "free"}}}}
	r := c.request(3, 4)
	got := fmt.Sprintf("%s %d %s=%s %s=%s %s=%s", r.GetDomain(), r.GetHitsAddend(),
		r.Descriptors[0].Entries[0].Key, r.Descriptors[0].Entries[0].Value,
		r.Descriptors[0].Entries[1].Key, r.Descriptors[0].Entries[1].Value,
		r.Descriptors[1].Entries[0].Key, r.Descriptors[1].Entries[0].Value)
	if want := "api 2 path=/login user=u-3 plan=free"; got != want {
		t.Errorf("key 3 of 4: %s, want %s", got, want)
	}
	if v := c.request(1, 1).Descriptors[0].Entries[1].Value; v != "u" {
		t.Errorf("one key: %q, want u", v)
	}
}
