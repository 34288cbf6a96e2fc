package server

import (
	"context"
	"net/http"
	"sync"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// rlsName is the gRPC service Envoy calls, as reflection and the health
// protocol name it.
var rlsName = rls.RateLimitService_ServiceDesc.ServiceName

// grpcHealth is grpc.health.v1.Health as Kubernetes' gRPC probes,
// grpc-health-probe and Envoy's gRPC health checks ask it: SERVING for ""
// (the whole server) and for the rate limit service from the moment the
// listener opens, which is after the rules are loaded; NOT_SERVING from
// the moment the drain starts, before the listeners close.
//
// grpc-go's health server keeps a Watch stream open for ever, and
// GracefulStop waits for every stream: one watcher would hold the drain
// until its deadline and then be cut. Watch here ends the stream, with
// status OK, once it has told the watcher NOT_SERVING.
type grpcHealth struct {
	*health.Server
	draining chan struct{}

	mu        sync.Mutex
	storeDown bool
	changed   chan struct{} // closed, and replaced, when storeDown changes
}

func newGRPCHealth() *grpcHealth {
	h := &grpcHealth{Server: health.NewServer(), draining: make(chan struct{}), changed: make(chan struct{})}
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(rlsName, healthpb.HealthCheckResponse_SERVING)
	return h
}

// drain turns every service NOT_SERVING for good and ends the watches.
func (h *grpcHealth) drain() {
	h.Shutdown()
	close(h.draining)
}

// setStore turns the server and the rate limit service NOT_SERVING while
// the store is down, SERVING when it is up (once drained, the health server
// keeps NOT_SERVING whatever it is told).
func (h *grpcHealth) setStore(up bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.storeDown == !up {
		return
	}
	h.storeDown = !up
	st := healthpb.HealthCheckResponse_SERVING
	if !up {
		st = healthpb.HealthCheckResponse_NOT_SERVING
	}
	h.SetServingStatus("", st)
	h.SetServingStatus(rlsName, st)
	close(h.changed)
	h.changed = make(chan struct{})
}

// Watch sends the service's status and each change of it, until the drain
// starts: then it sends NOT_SERVING and returns.
func (h *grpcHealth) Watch(in *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	last := healthpb.HealthCheckResponse_ServingStatus(-1)
	for {
		h.mu.Lock()
		changed := h.changed
		h.mu.Unlock()
		st := healthpb.HealthCheckResponse_SERVICE_UNKNOWN
		if r, err := h.Check(stream.Context(), in); err == nil {
			st = r.Status
		}
		if st != last {
			if err := stream.Send(&healthpb.HealthCheckResponse{Status: st}); err != nil {
				return err
			}
			last = st
		}
		select {
		case <-changed:
		case <-h.draining:
			if last == healthpb.HealthCheckResponse_SERVING {
				return stream.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
			}
			return nil
		case <-stream.Context().Done():
			return status.FromContextError(context.Cause(stream.Context())).Err()
		}
	}
}

// serveHealth is GET /healthcheck: 200 "OK" while the Service is healthy,
// else 503 with its line (with --health-checks-store, the nodes of the
// store that did not answer the latest ping).
func (srv *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	if err := srv.svc.Health(); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("OK"))
}

// SetStoreUp turns the gRPC health NOT_SERVING while the store is down and
// SERVING when it is up again, for a service whose health follows its
// store (--health-checks-store). After the drain has begun it changes
// nothing.
func (srv *Server) SetStoreUp(up bool) {
	if srv.grpcHealth != nil {
		srv.grpcHealth.setStore(up)
	}
}

// registerOps adds the health service and server reflection (v1 and
// v1alpha, so that grpcurl lists and describes the services without the
// .proto files) to the gRPC server.
func registerOps(srv *grpc.Server, h *grpcHealth) {
	healthpb.RegisterHealthServer(srv, h)
	reflection.Register(srv)
}
