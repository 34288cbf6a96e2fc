package server

import (
	"context"
	"net/http"
	"net/http/httptest"
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

// serverOf is a Server on svc with no listener: its handlers and its
// gRPC method, called in the test's own goroutine.
func serverOf(t *testing.T, svc Service) *Server {
	t.Helper()
	srv, err := Listen(svc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

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

// post sends body to the HTTP handler's POST /json and returns the status
// and the body written.
func post(srv *Server, body string) (int, string) {
	rec := httptest.NewRecorder()
	srv.handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/json", strings.NewReader(body)))
	return rec.Code, rec.Body.String()
}
