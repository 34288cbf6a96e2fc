package redisproc

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// QuietClientLogs keeps go-redis from logging: the experiments kill and
// freeze nodes on purpose, and every refused dial to them would otherwise
// print a line over a report or a screen.
func QuietClientLogs() { redis.SetLogger(quietLogger{}) }

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}
