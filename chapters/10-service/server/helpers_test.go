package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// fakeService answers every request with resp and err, and its health
// with health: the transports alone, without rules or a store (the
// service's own tests run them with both).
type fakeService struct {
	resp   *rls.RateLimitResponse
	err    error
	health error
}

func (f *fakeService) ShouldRateLimit(context.Context, *rls.RateLimitRequest) (*rls.RateLimitResponse, error) {
	return f.resp, f.err
}

func (f *fakeService) Health() error { return f.health }

// listen serves svc on loopback gRPC, HTTP and admin listeners until the
// test ends.
func listen(t *testing.T, svc Service) *Server {
	t.Helper()
	srv, err := Listen(svc, Config{GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	return srv
}

// post sends body to POST /json and returns the status and the body.
func post(t *testing.T, srv *Server, body string) (int, string) {
	t.Helper()
	resp, err := http.Post("http://"+srv.HTTPAddr()+"/json", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
