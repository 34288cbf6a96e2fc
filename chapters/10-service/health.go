package service

import (
	"context"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthgrpc "google.golang.org/grpc/health/grpc_health_v1"
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
}

func newGRPCHealth() *grpcHealth {
	h := &grpcHealth{Server: health.NewServer(), draining: make(chan struct{})}
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(rlsName, healthpb.HealthCheckResponse_SERVING)
	return h
}

// drain turns every service NOT_SERVING for good and ends the watches.
func (h *grpcHealth) drain() {
	h.Shutdown()
	close(h.draining)
}

// Watch sends the service's status, then its change to NOT_SERVING when the
// drain starts, and returns.
func (h *grpcHealth) Watch(in *healthpb.HealthCheckRequest, stream healthgrpc.Health_WatchServer) error {
	st := healthpb.HealthCheckResponse_SERVICE_UNKNOWN
	if r, err := h.Check(stream.Context(), in); err == nil {
		st = r.Status
	}
	if err := stream.Send(&healthpb.HealthCheckResponse{Status: st}); err != nil {
		return err
	}
	select {
	case <-h.draining:
		if st == healthpb.HealthCheckResponse_SERVING {
			return stream.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
		}
		return nil
	case <-stream.Context().Done():
		return status.FromContextError(context.Cause(stream.Context())).Err()
	}
}

// registerOps adds the health service and server reflection (v1 and
// v1alpha, so that grpcurl lists and describes the services without the
// .proto files) to the gRPC server.
func registerOps(srv *grpc.Server, h *grpcHealth) {
	healthgrpc.RegisterHealthServer(srv, h)
	reflection.Register(srv)
}
