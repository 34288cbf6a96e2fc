package service

import (
	"context"
	"errors"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"strings"
	"testing"
)

// TestOutageFailureModes: with the store down, the api domain (failure_mode
// open) answers OK with no limit and the payments domain (closed) answers
// ErrUnavailable. Three failures open the Guard's breaker; once the store is
// back, the breaker lets a probe through a second later (on the service's
// clock) and the count kept from before the outage goes on.
func TestOutageFailureModes(t *testing.T) {
	s, clock, o := startBehindOutage(t, Options{})
	if s.FailureMode("api") != "open" || s.FailureMode("payments") != "closed" || s.FailureMode("nowhere") != "open" {
		t.Fatalf("failure modes: api %s, payments %s, unnamed %s", s.FailureMode("api"), s.FailureMode("payments"), s.FailureMode("nowhere"))
	}
	pay := func() (string, error) {
		resp, trs, err := explain(t, s, "payments", desc("account", "a1"))
		if err != nil {
			return "", err
		}
		if !trs[0].Store {
			t.Error("payments did not go to the store")
		}
		return summary(resp), nil
	}
	if got, err := pay(); got != "OK OK:2" || err != nil || s.Breaker() != "closed" {
		t.Fatalf("before the outage: %q %v, breaker %s; want OK OK:2, closed", got, err, s.Breaker())
	}

	o.Set(true)
	resp, trs, err := explain(t, s, "api", desc("api_key", "k1"))
	if err != nil || summary(resp) != "OK OK:-" || !trs[0].Store {
		t.Errorf("api while down: %v %v store %v; want OK with no limit (failed open)", summary(resp), err, trs[0].Store)
	}
	for i := range 2 {
		if _, err := pay(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("payments while down #%d: %v, want ErrUnavailable", i, err)
		}
	}
	if s.Breaker() != "open" {
		t.Errorf("after 3 failures the breaker is %s, want open", s.Breaker())
	}

	o.Set(false)
	if _, err := pay(); !errors.Is(err, ErrUnavailable) {
		t.Errorf("back, breaker still open: %v, want ErrUnavailable until the probe", err)
	}
	clock.Add(1)
	if got, err := pay(); got != "OK OK:1" || err != nil || s.Breaker() != "closed" {
		t.Errorf("a second later: %q %v, breaker %s; want OK OK:1 (the count kept), closed", got, err, s.Breaker())
	}
}

// closeCount is a store that counts its Close calls.
type closeCount struct {
	store.Store
	closed int
}

func (c *closeCount) Close() error { c.closed++; return c.Store.Close() }

// TestGivenStoreIsTheService: a Store given in Options is the service's
// from Start on: a Start that fails closes it, and a Store given with a
// Redis is refused by name.
func TestGivenStoreIsTheService(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"with a Redis", Options{RedisAddr: "127.0.0.1:1"}, "store"},
		{"rules refused", Options{Config: writeRules(t, "domain: d\nnot_a_field: 1\n")}, "not_a_field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem, err := store.NewMemory(store.MemoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			st := &closeCount{Store: mem}
			tc.o.Store = st
			s, err := Start(context.Background(), tc.o)
			if err == nil {
				_ = s.Close()
				t.Fatal("Start succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) || st.closed == 0 {
				t.Errorf("%v, closed %d times; want an error naming %q and the store closed", err, st.closed, tc.want)
			}
		})
	}
}
