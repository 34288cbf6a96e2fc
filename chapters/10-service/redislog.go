package service

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// routeRedisLog sends go-redis's own log lines (a dial that failed, say)
// to w, the service's log, instead of go-redis's default, stderr, until
// the returned stop is called; after it they are dropped. go-redis keeps one
// logger for the whole process, so `tui serve` sets it once. A line
// repeating the one before is dropped, so a Redis that is down gives one
// line and not one per request (the store's health reports the outage).
func routeRedisLog(w io.Writer) (stop func()) {
	l := &redisLog{w: w}
	redis.SetLogger(l)
	return func() {
		l.mu.Lock()
		l.w = io.Discard
		l.mu.Unlock()
	}
}

// redisLog is go-redis's logger writing to the service's log.
type redisLog struct {
	mu   sync.Mutex
	w    io.Writer
	last string
}

func (l *redisLog) Printf(_ context.Context, format string, v ...any) {
	line := "go-redis: " + strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	l.mu.Lock()
	defer l.mu.Unlock()
	if line == l.last {
		return
	}
	l.last = line
	fmt.Fprintln(l.w, line)
}
