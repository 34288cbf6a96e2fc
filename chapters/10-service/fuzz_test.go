package service

import (
	"context"
	"errors"
	"testing"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// FuzzRequest: any bytes at POST /json are decided or refused as a
// BadRequest; nothing else comes back and nothing panics.
func FuzzRequest(f *testing.F) {
	f.Add(`{"domain":"e32","descriptors":[{"entries":[{"key":"api_key","value":"a"}]}]}`)
	f.Add(`{"domain":"e32","hitsAddend":4000000000,"descriptors":[{"entries":[{"key":"path","value":"/login"},{"key":"ip"}],"hitsAddend":"3"}]}`)
	f.Add(`{"domain":"e32","descriptors":[{"entries":[]}]}`)
	s, err := Start(context.Background(), Options{Config: writeRules(f, e32Rules)})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	f.Fuzz(func(t *testing.T, body string) {
		var req rls.RateLimitRequest
		if protojson.Unmarshal([]byte(body), &req) != nil {
			return
		}
		resp, err := s.ShouldRateLimit(context.Background(), &req)
		var br *server.BadRequest
		switch {
		case errors.As(err, &br):
		case err != nil:
			t.Fatalf("%v, want a decision or a BadRequest", err)
		case len(resp.Statuses) != len(req.Descriptors):
			t.Fatalf("%d statuses for %d descriptors", len(resp.Statuses), len(req.Descriptors))
		}
	})
}
