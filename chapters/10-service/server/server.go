// Package server is how clients reach the rate limit service, as
// envoyproxy/ratelimit's src/server: the gRPC listener (the rate limit
// service, gRPC health and reflection; grpc.go), the HTTP listener
// (POST /json, /healthcheck, /metrics; http.go), the admin listener
// (admin.go), the debug listener (debug.go), the caps on their connections
// (listen.go, connlimit.go) and the drain that stops them (drain.go). It
// knows the service only as the Service interface: the decisions, the
// rules and the store are chapter 10's root package.
package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// Service is what the listeners serve.
type Service interface {
	// ShouldRateLimit decides a request. A *BadRequest is the client's
	// fault (INVALID_ARGUMENT, 400); chapter 06's ErrUnavailable is a
	// fail-closed domain without its store (UNAVAILABLE, 503).
	ShouldRateLimit(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, error)
	// Health is nil while the service is healthy, or the one line of
	// /healthcheck's 503 (health.go).
	Health() error
}

// Config says which listeners to open and with which limits.
type Config struct {
	GRPCAddr  string // e.g. "127.0.0.1:0"; "" = no gRPC listener
	HTTPAddr  string // "" = no HTTP listener
	AdminAddr string // /healthcheck and /metrics only (admin.go); "" = none
	DebugAddr string // pprof, on loopback only (debug.go); "" = none
	// Limits are the timeouts and caps (listen.go); a zero field takes
	// its constant.
	Limits Limits
	// Registry is what /metrics serves; the server adds its own series to
	// it: connections open and refused, requests refused as bad.
	Registry *prometheus.Registry
}

// Server holds the listeners open on one Service.
type Server struct {
	svc    Service
	limits Limits
	reg    *prometheus.Registry

	grpcSrv    *grpc.Server
	grpcHealth *grpcHealth // grpc.health.v1.Health: NOT_SERVING once the drain starts
	malformed  sync.Map    // *rls.RateLimitRequest → its decoding error (requestCodec)
	httpSrv    *http.Server
	grpcLn     net.Listener
	httpLn     net.Listener
	debugSrv   *http.Server // pprof (debug.go); closed, not drained
	debugLn    net.Listener
	adminSrv   *http.Server // /healthcheck and /metrics (admin.go); closed after the drain
	adminLn    net.Listener
	m          metrics

	wg sync.WaitGroup // the listeners' Serve loops
}

// Listen opens the listeners c asks for on svc; Stop closes them. On an
// error none is left open.
func Listen(svc Service, c Config) (*Server, error) {
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
	srv := &Server{svc: svc, limits: c.Limits.WithDefaults(), reg: c.Registry, m: newMetrics(c.Registry)}
	if err := srv.listen(c); err != nil {
		_ = srv.Stop()
		return nil, err
	}
	return srv, nil
}

// GRPCAddr is the gRPC listener's address ("" without one).
func (srv *Server) GRPCAddr() string { return addr(srv.grpcLn) }

// HTTPAddr is the HTTP listener's address ("" without one).
func (srv *Server) HTTPAddr() string { return addr(srv.httpLn) }

// DebugAddr is the debug listener's address ("" without one).
func (srv *Server) DebugAddr() string { return addr(srv.debugLn) }

// AdminAddr is the admin listener's address ("" without one).
func (srv *Server) AdminAddr() string { return addr(srv.adminLn) }

// DrainTimeout is how long Stop waits for the calls in flight.
func (srv *Server) DrainTimeout() time.Duration { return srv.limits.Drain }

// addr is a listener's address ("" without one).
func addr(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// Stop drains the gRPC and HTTP listeners, closes the debug and admin ones
// (which answer until the drain ends) and waits for every Serve loop to
// return.
func (srv *Server) Stop() error {
	err := srv.drain()
	for _, h := range []*http.Server{srv.debugSrv, srv.adminSrv} {
		if h != nil {
			_ = h.Close()
		}
	}
	srv.wg.Wait()
	return err
}

// rlsServer adapts the Service to the generated gRPC interface.
type rlsServer struct {
	rls.UnimplementedRateLimitServiceServer
	srv *Server
}
