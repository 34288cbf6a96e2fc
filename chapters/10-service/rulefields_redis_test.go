//go:build !exercise10

package service

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestCounterKeyUnambiguous_Redis: on Redis too, two descriptors that a
// NUL inside a value (JSON "\u0000") once joined count apart, and the
// same one counts once: the key's name (redisID) stays one per counter.
func TestCounterKeyUnambiguous_Redis(t *testing.T) {
	d := uniqueDomain(t)
	s := start(t, Options{Config: writeRules(t, rulesFor(`
domain: n
descriptors:
  - key: k
    descriptors:
      - key: j
        rate_limit: {unit: `+windowUnit(t, time.Now())+`, requests_per_unit: 1}
`, "n", d)), RedisAddr: redistest.Addr(t), StoreTimeout: 2 * time.Second})
	body := func(v1, v2 string) string {
		return `{"domain":"` + d + `","descriptors":[{"entries":[{"key":"k","value":"` + v1 + `"},{"key":"j","value":"` + v2 + `"}]}]}`
	}
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"a", body(`a\u0000j\u0000b`, "c"), http.StatusOK},
		{"b, which shared a's counter", body("a", `b\u0000j\u0000c`), http.StatusOK},
		{"a again", body(`a\u0000j\u0000b`, "c"), http.StatusTooManyRequests},
	} {
		if code, msg := postJSON(t, s, tc.body); code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, strings.TrimSpace(msg), tc.want)
		}
	}
}
