package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// TestAnswersByTransport: each answer a Service can give, as each
// transport carries it, on real listeners: OK is 200, OVER_LIMIT 429, a
// bad request 400 and INVALID_ARGUMENT, a fail-closed domain without its
// store 503 with Retry-After and UNAVAILABLE, anything else 500 and
// INTERNAL. An unhealthy Service is a 503 on /healthcheck, on the HTTP
// port and on the admin one.
func TestAnswersByTransport(t *testing.T) {
	ok := &rls.RateLimitResponse{OverallCode: rls.RateLimitResponse_OK}
	over := &rls.RateLimitResponse{OverallCode: rls.RateLimitResponse_OVER_LIMIT}
	for _, tc := range []struct {
		name       string
		svc        *fakeService
		http       int
		retryAfter string
		grpc       codes.Code
		health     int
	}{
		{"ok", &fakeService{resp: ok}, 200, "", codes.OK, 200},
		{"over limit", &fakeService{resp: over}, 429, "", codes.OK, 200},
		{"bad request", &fakeService{err: &BadRequest{Msg: "domain: empty"}}, 400, "", codes.InvalidArgument, 200},
		{"unavailable", &fakeService{err: fmt.Errorf("decide: %w", distributed.ErrUnavailable)}, 503, "1", codes.Unavailable, 200},
		{"internal", &fakeService{err: errors.New("boom")}, 500, "", codes.Internal, 200},
		{"unhealthy", &fakeService{resp: ok, health: errors.New("store down: 127.0.0.1:6379")}, 200, "", codes.OK, 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := listen(t, tc.svc)
			resp, err := http.Post("http://"+srv.HTTPAddr()+"/json", "application/json", strings.NewReader(`{"domain":"d"}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.http || resp.Header.Get("Retry-After") != tc.retryAfter {
				t.Errorf("POST /json: %d, Retry-After %q; want %d, %q", resp.StatusCode, resp.Header.Get("Retry-After"), tc.http, tc.retryAfter)
			}
			cc, err := grpc.NewClient(srv.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				t.Fatal(err)
			}
			defer cc.Close()
			_, err = rls.NewRateLimitServiceClient(cc).ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "d"})
			if status.Code(err) != tc.grpc {
				t.Errorf("gRPC: %v, want %v", err, tc.grpc)
			}
			for _, addr := range []string{srv.HTTPAddr(), srv.AdminAddr()} {
				resp, err := http.Get("http://" + addr + "/healthcheck")
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.health {
					t.Errorf("GET %s/healthcheck: %d %q, want %d", addr, resp.StatusCode, body, tc.health)
				}
			}
		})
	}
}
