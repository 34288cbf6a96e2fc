package overload

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// offer sends n requests of priority p to s (none finishes meanwhile) and
// reports how many were admitted; every shed one must carry retryAfter.
func offer(t *testing.T, s *Shedder, p Priority, n int, retryAfter time.Duration) int {
	t.Helper()
	admitted := 0
	for range n {
		d := s.Admit(p)
		switch {
		case d.Allowed:
			admitted++
		case d.RetryAfter != retryAfter:
			t.Fatalf("a shed request was told RetryAfter %v, want %v", d.RetryAfter, retryAfter)
		}
	}
	return admitted
}

// TestE25_PriorityShedding (CONTRACT.md E25): 1,000 slots with 20 % reserved
// for critical work. 900 ordinary requests arrive first, then 300 critical:
// 800 ordinary are admitted and 100 shed with 503 + Retry-After, then 200
// critical are admitted (the reserve) and 100 shed. Without the reserve the
// ordinary flood takes 900 slots and critical work gets only 100.
func TestE25_PriorityShedding(t *testing.T) {
	const retry = 5 * time.Second
	for _, c := range []struct {
		name               string
		reserved           int
		ordinary, critical int
	}{
		{"20% reserved", 200, 800, 200},
		{"no reserve", 0, 900, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewShedder(ShedConfig{Slots: 1000, Reserved: c.reserved, RetryAfter: retry})
			if err != nil {
				t.Fatal(err)
			}
			ord := offer(t, s, Ordinary, 900, retry)
			crit := offer(t, s, Critical, 300, retry)
			if ord != c.ordinary || crit != c.critical {
				t.Errorf("admitted %d ordinary + %d critical, want %d + %d", ord, crit, c.ordinary, c.critical)
			}
		})
	}
}

// TestShedderInvariants: on random sequences of admissions and releases,
// ordinary requests never hold more than Slots − Reserved, nothing holds more
// than Slots, and a critical request is refused only when every slot is taken.
func TestShedderInvariants(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		cfg := ShedConfig{Slots: 1 + rnd.IntN(20), RetryAfter: time.Second}
		cfg.Reserved = rnd.IntN(cfg.Slots + 1)
		s, err := NewShedder(cfg)
		if err != nil {
			t.Fatal(err)
		}
		held := map[Priority]int{}
		for range 300 {
			p := Priority(rnd.IntN(2))
			if rnd.IntN(3) == 0 && held[p] > 0 {
				if err := s.Release(p); err != nil {
					t.Fatal(err)
				}
				held[p]--
				continue
			}
			d := s.Admit(p)
			if d.Allowed {
				held[p]++
			} else if p == Critical && held[Ordinary]+held[Critical] < cfg.Slots {
				t.Fatalf("%+v: critical refused with %v held", cfg, held)
			}
			if held[Ordinary] > cfg.Slots-cfg.Reserved || held[Ordinary]+held[Critical] > cfg.Slots {
				t.Fatalf("%+v: held %v", cfg, held)
			}
		}
	}
}

func TestShedderReleaseAndBadParams(t *testing.T) {
	s, _ := NewShedder(ShedConfig{Slots: 2, Reserved: 1, RetryAfter: time.Second})
	if err := s.Release(Critical); err == nil {
		t.Error("Release(Critical) with nothing held: want ErrNotHeld")
	}
	s.Admit(Ordinary)
	if err := s.Release(Critical); err == nil {
		t.Error("Release(Critical) with only an ordinary request held: want ErrNotHeld")
	}
	if err := s.Release(Ordinary); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		cfg   ShedConfig
		param string
	}{
		{ShedConfig{Slots: 0, RetryAfter: time.Second}, "slots"},
		{ShedConfig{Slots: 10, Reserved: 11, RetryAfter: time.Second}, "reserved"},
		{ShedConfig{Slots: 10, Reserved: -1, RetryAfter: time.Second}, "reserved"},
		{ShedConfig{Slots: 10}, "retry after"},
	} {
		if _, err := NewShedder(c.cfg); !isParam(err, c.param) {
			t.Errorf("%+v: %v, want a ParamError naming %s", c.cfg, err, c.param)
		}
	}
}

// TestGuard_429Versus503: a client over its own quota gets 429 however idle
// the service is; a client within its quota gets 503 when the service has no
// slot for its priority. Both carry Retry-After in whole seconds.
func TestGuard_429Versus503(t *testing.T) {
	quota, err := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: 1, Rate: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	shed, _ := NewShedder(ShedConfig{Slots: 1, Reserved: 1, RetryAfter: 2500 * time.Millisecond})
	clock := func() time.Time { return core.Epoch.Add(time.Hour) }
	h := Guard(quota, func(r *http.Request) string { return r.Header.Get("X-Client") },
		shed, func(r *http.Request) Priority {
			if r.Header.Get("X-Critical") != "" {
				return Critical
			}
			return Ordinary
		}, clock, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	for _, c := range []struct {
		client, critical string
		status           int
		retryAfter       string
	}{
		{"a", "yes", http.StatusOK, ""},               // within quota, a critical slot
		{"a", "yes", http.StatusTooManyRequests, "2"}, // over its quota: 1 token per 2 s
		{"b", "", http.StatusServiceUnavailable, "3"}, // within quota, but the one slot is reserved: 2.5 s → 3
		{"c", "yes", http.StatusOK, ""},               // the slot came back when a's request finished
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("X-Client", c.client)
		req.Header.Set("X-Critical", c.critical)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Header().Get("Retry-After") != c.retryAfter {
			t.Errorf("client %s critical=%q: %d Retry-After %q, want %d %q", c.client, c.critical,
				rec.Code, rec.Header().Get("Retry-After"), c.status, c.retryAfter)
		}
	}
}
