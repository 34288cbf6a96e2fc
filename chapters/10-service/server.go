package service

import (
	"net"
	"net/http"
	"sync"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// server is how clients reach a Service: the gRPC listener (the rate limit
// service, gRPC health and reflection), the HTTP listener (POST /json,
// /healthcheck, /metrics), the admin listener (/healthcheck, /metrics;
// admin.go), the debug listener, and the drain that stops them (drain.go). The Service itself holds the rules, the store and the
// decisions.
type server struct {
	s      *Service
	limits serverLimits

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
	refused    *prometheus.CounterVec // connections refused for their address's cap (connlimit.go)

	wg sync.WaitGroup // the listeners' Serve loops
}

// addr is a listener's address ("" without one).
func (srv *server) addr(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// stop drains the gRPC and HTTP listeners, closes the debug and admin ones
// (which answer until the drain ends) and waits for every Serve loop to
// return.
func (srv *server) stop() error {
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
	srv *server
}
