package service

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/core"
)

// The log's two forms (Options.LogFormat, --log-format): one record a line
// either way, as key=value pairs or as a JSON object.
const (
	LogText = "text"
	LogJSON = "json"
)

// withLogger builds the service's logger on o.Log in o.LogFormat, dropping
// records below o.LogLevel. o.Log then becomes a writer whose every write
// is one info record of that logger, so that a line still written with
// fmt.Fprintf(o.Log, …) comes out in the same form as the rest.
func (o Options) withLogger() (Options, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	hopts := &slog.HandlerOptions{Level: o.LogLevel}
	var h slog.Handler
	switch o.LogFormat {
	case "", LogText:
		o.LogFormat, h = LogText, slog.NewTextHandler(o.Log, hopts)
	case LogJSON:
		h = slog.NewJSONHandler(o.Log, hopts)
	default:
		return o, core.BadParam("log-format", o.LogFormat, "text or json")
	}
	o.logger = slog.New(h)
	o.Log = slog.NewLogLogger(h, slog.LevelInfo).Writer()
	return o, nil
}

// redisLog is go-redis's logger (redis.SetLogger) on the service's: its
// lines (a pool that cannot dial, a connection it drops) are warnings, as
// the store's own failures are logged by the service itself. A line that
// repeats the one before is dropped, so a Redis that is down gives one
// line, not one per request; after stop, every line is.
type redisLog struct {
	mu   sync.Mutex
	l    *slog.Logger // nil once stopped
	last string
}

// Printf logs one go-redis line at warn level.
func (r *redisLog) Printf(ctx context.Context, format string, v ...any) {
	line := strings.TrimSpace(strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.l == nil || line == r.last {
		return
	}
	r.last = line
	r.l.WarnContext(ctx, line, "from", "go-redis")
}

// routeRedisLog sends go-redis's own lines to l instead of stderr, until
// stop. go-redis has one logger per process: the service started last
// gets them, and a service closed writes no more of them.
func routeRedisLog(l *slog.Logger) (stop func()) {
	r := &redisLog{l: l}
	redis.SetLogger(r)
	return func() {
		r.mu.Lock()
		r.l = nil
		r.mu.Unlock()
	}
}
