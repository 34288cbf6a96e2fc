package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/protobuf/encoding/protojson"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// handler serves the HTTP side, as envoyproxy/ratelimit does: POST /json
// (the JSON form of RateLimitRequest; 200 with the response when OK, 429
// when OVER_LIMIT, 400 with one line for a bad request, 503 with
// Retry-After when a fail-closed domain's store cannot decide), GET /healthcheck
// (200 "OK"; 503 while the store is down, with --health-checks-store) and
// GET /metrics (Prometheus text).
func (srv *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/json", srv.serveJSON)
	mux.HandleFunc("GET /healthcheck", srv.serveHealth) // health.go
	mux.Handle("GET /metrics", promhttp.HandlerFor(srv.reg, promhttp.HandlerOpts{}))
	return mux
}

func (srv *Server) serveJSON(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST /json: send a RateLimitRequest as JSON", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			srv.badJSON(w, fmt.Sprintf("body: over %d bytes", MaxMessage))
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) { // ReadTimeout: a body sent too slowly
			http.Error(w, fmt.Sprintf("body: not received in full within %v", srv.limits.Read), http.StatusRequestTimeout)
			return
		}
		srv.badJSON(w, "body: "+err.Error())
		return
	}
	var req rls.RateLimitRequest
	if err := protojson.Unmarshal(body, &req); err != nil {
		srv.badJSON(w, "json: "+err.Error())
		return
	}
	resp, err := srv.svc.ShouldRateLimit(r.Context(), &req)
	var br *BadRequest
	switch {
	case errors.As(err, &br):
		srv.badJSON(w, br.Msg)
		return
	case errors.Is(err, distributed.ErrUnavailable):
		// Fail closed: refuse with 503, the service's problem, not 429,
		// which would tell the client it asked too much (chapter 09).
		w.Header().Set("Retry-After", strconv.Itoa(int(distributed.MinRetryAfter/time.Second)))
		http.Error(w, distributed.ErrUnavailable.Error(), http.StatusServiceUnavailable)
		return
	case err != nil:
		http.Error(w, clientLine(err.Error()), http.StatusInternalServerError)
		return
	}
	out, err := protojson.Marshal(resp)
	if err != nil {
		http.Error(w, clientLine(err.Error()), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if resp.OverallCode == rls.RateLimitResponse_OVER_LIMIT {
		w.WriteHeader(http.StatusTooManyRequests)
	}
	_, _ = w.Write(out)
}

// badJSON is the 400: one line, escaped (clientLine), nothing counted.
func (srv *Server) badJSON(w http.ResponseWriter, msg string) {
	srv.m.badRequest.WithLabelValues("http").Inc()
	http.Error(w, clientLine(msg), http.StatusBadRequest)
}
