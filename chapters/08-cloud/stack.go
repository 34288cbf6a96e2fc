package cloud

import (
	"net/http"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

// Stack is the layered deployment: WAF → API Gateway → service limiter →
// application. Each layer sees only what passed the one before; any layer
// may be nil (absent).
type Stack struct {
	WAF     *WAF
	Gateway *Gateway
	// Service is the application's own limiter, keyed by ServiceKey (the
	// user id by default) — the only layer that knows who the user is.
	Service    framing.Limiter
	ServiceKey func(Request) string
	// App is the application. It is called only for requests that passed
	// every layer.
	App func(Request)
}

// Outcome says how far a request got.
type Outcome struct {
	Layer      string // "waf", "gateway: <layer>", "service", or "app" when it got through
	Status     int
	ReachedApp bool
}

// Serve sends r through the layers in order.
func (s *Stack) Serve(r Request) (Outcome, error) {
	if s.WAF != nil {
		if v := s.WAF.Inspect(r); v.Blocked {
			return Outcome{Layer: "waf", Status: v.Status}, nil
		}
	}
	if s.Gateway != nil {
		if g := s.Gateway.Handle(r); g.Status != http.StatusOK {
			return Outcome{Layer: "gateway: " + g.Layer, Status: g.Status}, nil
		}
	}
	if s.Service != nil {
		key := framing.UserKey(r.UserID)
		if s.ServiceKey != nil {
			key = s.ServiceKey(r)
		}
		d, err := s.Service.AllowN(key, r.At, 1)
		if err != nil {
			return Outcome{}, err
		}
		if !d.Allowed {
			return Outcome{Layer: "service", Status: http.StatusTooManyRequests}, nil
		}
	}
	if s.App != nil {
		s.App(r)
	}
	return Outcome{Layer: "app", Status: http.StatusOK, ReachedApp: true}, nil
}
