package server

import "github.com/prometheus/client_golang/prometheus"

// metrics are the server's series, on the registry /metrics serves beside
// the service's own.
type metrics struct {
	badRequest *prometheus.CounterVec // transport
	conns      *prometheus.GaugeVec   // transport: connections open, at most MaxConns each
	refused    *prometheus.CounterVec // transport: closed at accept for their address's cap (connlimit.go)
}

func newMetrics(reg prometheus.Registerer) metrics {
	m := metrics{
		badRequest: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_bad_requests_total",
			Help: "Requests refused as invalid (nothing of them is counted), by transport."}, []string{"transport"}),
		conns: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ratelimit_open_connections",
			Help: "Client connections open, by transport (grpc, http); each is capped at MaxConns."}, []string{"transport"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ratelimit_refused_connections_total",
			Help: "Connections closed as soon as accepted because their client address held its cap (--max-conns-per-client), by transport."},
			[]string{"transport"}),
	}
	reg.MustRegister(m.badRequest, m.conns, m.refused)
	return m
}
