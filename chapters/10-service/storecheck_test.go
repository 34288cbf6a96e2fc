//go:build !exercise10

package service

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// storeHealthNow is what the service says of its health and its store.
type storeHealthNow struct {
	http int                                        // GET /healthcheck
	grpc healthpb.HealthCheckResponse_ServingStatus // grpc.health.v1 Check, "" and the rate limit service alike
	up   string                                     // ratelimit_store_up of the node
}

func healthNow(t *testing.T, s *Service, hc healthpb.HealthClient, node string) storeHealthNow {
	t.Helper()
	code, _ := get(t, s, "/healthcheck")
	now := storeHealthNow{http: code, up: metric(t, s, fmt.Sprintf(`ratelimit_store_up{node=%q}`, node))}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, name := range []string{"", rls.RateLimitService_ServiceDesc.ServiceName} {
		r, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: name})
		if err != nil {
			t.Fatalf("health Check(%q): %v", name, err)
		}
		if name != "" && r.Status != now.grpc {
			t.Fatalf("health Check: %v for the server, %v for %s", now.grpc, r.Status, name)
		}
		now.grpc = r.Status
	}
	return now
}

// checkHealthFollows takes the store down and up again and drives the
// store check (no waiting for its ticker) until the gauge says so: with
// follows (--health-checks-store), /healthcheck answers 503 and gRPC
// health NOT_SERVING while the node is down, and a watcher hears both
// changes; without it they stay 200 and SERVING. ratelimit_store_up is 0
// while down, 1 when up, either way.
func checkHealthFollows(t *testing.T, s *Service, follows bool, node string, down, up func() error) {
	hc := healthpb.NewHealthClient(dial(t, s.GRPCAddr()))
	healthy := storeHealthNow{200, healthpb.HealthCheckResponse_SERVING, "1"}
	sick := storeHealthNow{200, healthpb.HealthCheckResponse_SERVING, "0"}
	if follows {
		sick = storeHealthNow{503, healthpb.HealthCheckResponse_NOT_SERVING, "0"}
	}
	ctx := context.Background()
	if d := s.checkStore(ctx); len(d) != 0 {
		t.Fatalf("before: nodes down %v", d)
	}
	if got := healthNow(t, s, hc, node); got != healthy {
		t.Fatalf("before: %+v, want %+v", got, healthy)
	}
	w := watchHealth(t, s.GRPCAddr(), "")
	w.next(t, healthpb.HealthCheckResponse_SERVING)
	for _, step := range []struct {
		name   string
		change func() error
		want   storeHealthNow
		status healthpb.HealthCheckResponse_ServingStatus
	}{
		{"down", down, sick, healthpb.HealthCheckResponse_NOT_SERVING},
		{"up", up, healthy, healthpb.HealthCheckResponse_SERVING},
	} {
		if err := step.change(); err != nil {
			t.Fatal(err)
		}
		var got storeHealthNow
		poll(t, 30*time.Second, func() bool {
			d := s.checkStore(ctx)
			got = healthNow(t, s, hc, node)
			return got.up == step.want.up && (len(d) == 0) == (step.want.up == "1")
		})
		if got != step.want {
			t.Errorf("store %s: %+v, want %+v", step.name, got, step.want)
		}
		if d := s.check.down(); step.name == "down" && !slices.Equal(d, []string{node}) {
			t.Errorf("store down: nodes down %v, want [%s]", d, node)
		}
		if follows {
			w.next(t, step.status)
		}
	}
}

// TestHealthFollowsOutage: the in-memory store behind an Outage, with and
// without HealthChecksStore.
func TestHealthFollowsOutage(t *testing.T) {
	for _, follows := range []bool{true, false} {
		t.Run(fmt.Sprint("follows=", follows), func(t *testing.T) {
			o := &store.Outage{}
			mem, err := store.NewMemory(store.MemoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := start(t, Options{Store: o.Wrap(mem), HealthChecksStore: follows})
			checkHealthFollows(t, s, follows, store.MemoryNode,
				func() error { o.Set(true); return nil }, func() error { o.Set(false); return nil })
		})
	}
}

// TestHealthFollowsRedis: a Redis of the test's own, killed and restarted,
// with and without HealthChecksStore.
func TestHealthFollowsRedis(t *testing.T) {
	for _, follows := range []bool{true, false} {
		t.Run(fmt.Sprint("follows=", follows), func(t *testing.T) {
			red := redistest.StartDedicated(t)
			s := start(t, Options{RedisAddr: red.Addr(), HealthChecksStore: follows})
			checkHealthFollows(t, s, follows, red.Addr(), red.Kill, red.Restart)
		})
	}
}

// TestStoreUpInMemory: the in-memory store without an Outage is one node,
// always up.
func TestStoreUpInMemory(t *testing.T) {
	s := start(t, Options{HealthChecksStore: true})
	wantMetric(t, s, `ratelimit_store_up{node="memory"}`, "1")
	if code, body := get(t, s, "/healthcheck"); code != 200 || body != "OK" {
		t.Errorf("/healthcheck: %d %q, want 200 OK", code, body)
	}
}
