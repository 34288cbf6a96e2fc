package service

import (
	"errors"
	"strings"
)

// Health is what GET /healthcheck answers (server/health.go): nil, 200
// "OK", while the service runs; with --health-checks-store, an error
// naming the nodes of the store that did not answer the latest ping, a 503.
// gRPC health follows the same pings (storecheck.go).
func (s *Service) Health() error {
	if down := s.check.down(); s.o.HealthChecksStore && len(down) > 0 {
		return errors.New("store down: " + strings.Join(down, ", "))
	}
	return nil
}
