package service

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// dial is a gRPC connection of its own to addr.
func dial(t testing.TB, addr string) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// healthWatch is a grpc.health.v1.Health/Watch stream: the statuses it
// receives, then how it ended (nil: the server closed it with OK).
type healthWatch struct {
	statuses chan healthpb.HealthCheckResponse_ServingStatus
	end      chan error
}

func watchHealth(t *testing.T, addr, service string) healthWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stream, err := healthpb.NewHealthClient(dial(t, addr)).Watch(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		t.Fatal(err)
	}
	w := healthWatch{make(chan healthpb.HealthCheckResponse_ServingStatus, 8), make(chan error, 1)}
	go func() {
		for {
			r, err := stream.Recv()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				w.end <- err
				close(w.statuses) // after end: next reads every status first
				return
			}
			w.statuses <- r.Status
		}
	}()
	return w
}

func (w healthWatch) next(t *testing.T, want healthpb.HealthCheckResponse_ServingStatus) {
	t.Helper()
	select {
	case got, ok := <-w.statuses:
		if !ok {
			t.Fatalf("health watch ended (%v) before %v", <-w.end, want)
		}
		if got != want {
			t.Fatalf("health watch: %v, want %v", got, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("health watch: no %v within 20s", want)
	}
}

// TestHealthNotServingWhileDraining: grpc.health.v1.Health answers SERVING
// for the server and the rate limit service once the rules are loaded;
// when Close begins, with a gRPC call and a POST /json held in flight, a
// watcher is told NOT_SERVING and its stream ends (it does not hold the
// drain), and then the calls in flight are still answered.
func TestHealthNotServingWhileDraining(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules)})
	hc := healthpb.NewHealthClient(dial(t, s.GRPCAddr()))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, name := range []string{"", "envoy.service.ratelimit.v3.RateLimitService"} {
		r, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: name})
		if err != nil || r.Status != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("Check(%q): %v, %v; want SERVING", name, r, err)
		}
	}
	if _, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: "no.such.Service"}); status.Code(err) != codes.NotFound {
		t.Errorf("Check of an unknown service: %v, want NotFound", err)
	}
	w := watchHealth(t, s.GRPCAddr(), "")
	w.next(t, healthpb.HealthCheckResponse_SERVING)

	entered, release := holdStore(s)
	defer release()
	grpcAns, httpAns := callsInFlight(t, s, entered)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	w.next(t, healthpb.HealthCheckResponse_NOT_SERVING)
	if err := await(t, w.end, 20*time.Second, "the health watch stayed open during the drain"); err != nil {
		t.Errorf("health watch ended with %v, want OK", err)
	}
	drainsOnRelease(t, closed, release, grpcAns, httpAns)
}

// TestReflectionListsTheService: a gRPC reflection (v1) client, as grpcurl
// is, lists the rate limit service and the health service, and gets the
// rate limit service's .proto file by its name.
func TestReflectionListsTheService(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, drainRules)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stream, err := reflectionpb.NewServerReflectionClient(dial(t, s.GRPCAddr())).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req *reflectionpb.ServerReflectionRequest) *reflectionpb.ServerReflectionResponse {
		t.Helper()
		if err := stream.Send(req); err != nil {
			t.Fatal(err)
		}
		r, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if e := r.GetErrorResponse(); e != nil {
			t.Fatalf("reflection error %d: %s", e.ErrorCode, e.ErrorMessage)
		}
		return r
	}
	var names []string
	for _, sr := range ask(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}).GetListServicesResponse().GetService() {
		names = append(names, sr.Name)
	}
	for _, want := range []string{"envoy.service.ratelimit.v3.RateLimitService", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection"} {
		if !slices.Contains(names, want) {
			t.Errorf("services listed %v, lacking %s", names, want)
		}
	}
	files := ask(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_FileContainingSymbol{
		FileContainingSymbol: "envoy.service.ratelimit.v3.RateLimitService"}}).GetFileDescriptorResponse().GetFileDescriptorProto()
	if len(files) == 0 {
		t.Fatal("no file for envoy.service.ratelimit.v3.RateLimitService")
	}
	var fd descriptorpb.FileDescriptorProto
	if err := proto.Unmarshal(files[0], &fd); err != nil {
		t.Fatal(err)
	}
	if fd.GetName() != "envoy/service/ratelimit/v3/rls.proto" || len(fd.Service) != 1 ||
		fd.Service[0].GetName() != "RateLimitService" || fd.Service[0].Method[0].GetName() != "ShouldRateLimit" {
		t.Errorf("file %s with services %v, want rls.proto with RateLimitService.ShouldRateLimit", fd.GetName(), fd.Service)
	}
}
