package service

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// Command is `tui serve`: it starts the service with the flags of
// CONTRACT-CLI.md §5 and blocks until SIGINT or SIGTERM, then drains: the
// listeners close, the calls in flight are answered (up to server.DrainTimeout),
// and it exits 0 (1 if calls had to be cut). A second signal during the
// drain stops the process at once. --help prints every flag with its
// default and exits 0; a bad flag exits 2 with its error and that usage on
// stderr; a bad rules file, or a store it cannot reach, exits 2 with one
// line on stderr.
//
//	serve [--config FILE|DIR] [--redis HOST:PORT|URL | --redis-cluster A,B,C | --redis-sentinel A,B --redis-sentinel-master NAME]
//	      [--redis-username USER] [--redis-tls] [--redis-tls-ca F] [--redis-tls-cert F --redis-tls-key F] [--redis-tls-server-name N]
//	      [--http 127.0.0.1:8080] [--grpc 127.0.0.1:8081] [--failure-mode open|closed]
//	      [--debug 127.0.0.1:6060] [--max-keys N] [--store-timeout D] [--store-patience D]
//	      [--log-format text|json] [--log-level debug|info|warn|error]
//	      [--admin 127.0.0.1:8082] [--max-conns-per-client N]
func Command(args []string, stdout, stderr io.Writer) int {
	return command(args, stdout, stderr, nil)
}

// command is Command with a hook called once the service runs, for tests.
func command(args []string, stdout, stderr io.Writer, started func(*Service)) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // the first signal drains; the next one has its default effect
	return run(ctx, args, stdout, stderr, started)
}

// run is Command with the stopping context given, for tests; started, if
// not nil, is called with the service once it runs.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, started func(*Service)) int {
	var o Options
	var cluster, mode string
	fs := serveFlags(&o, &cluster, &mode)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stdout)
			return 0
		}
		fmt.Fprintln(stderr, "serve: "+err.Error())
		usage(fs, stderr)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "serve: unexpected argument %q (flags only)\n", fs.Arg(0))
		usage(fs, stderr)
		return 2
	}
	if cluster != "" {
		o.RedisCluster = strings.Split(cluster, ",")
	}
	o.FailureMode = rules.FailureMode(mode) // Start refuses any other than open or closed
	o.Log = stdout
	redisEnv(&o) // the passwords, kept out of ps (redisflags.go)
	s, err := Start(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "serve: "+oneLine(err.Error()))
		return 2
	}
	log := s.o.logger
	admin := "none"
	if s.AdminAddr() != "" {
		admin = s.AdminAddr() + " (GET /healthcheck, GET /metrics)"
	}
	log.Info("serving", "grpc", s.GRPCAddr(), "http", s.HTTPAddr(), "http_paths", "POST /json, GET /healthcheck, GET /metrics",
		"admin", admin, "rules", s.Rules().Source())
	if s.DebugAddr() != "" {
		log.Info("debug: pprof on this host only", "url", "http://"+s.DebugAddr()+"/debug/pprof/")
	}
	if started != nil {
		started(s)
	}
	<-ctx.Done()
	log.Info("stopping: answering the calls in flight; a second signal stops at once", "drain_timeout", s.srv.DrainTimeout().String())
	if err := s.Close(); err != nil {
		fmt.Fprintln(stderr, "serve: "+oneLine(err.Error()))
		return 1
	}
	log.Info("stopped")
	return 0
}

// serveFlags defines serve's flags on o (and cluster and mode, read later).
func serveFlags(o *Options, cluster, mode *string) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run writes the errors and the usage itself
	fs.StringVar(&o.Config, "config", "", "rules file or directory (default: the chapter's example rules)")
	fs.StringVar(&o.RedisAddr, "redis", "", "Redis as host:port, redis://[user:password@]host:port[/db] or rediss://... for TLS; the password better in "+store.RedisPasswordEnv+" (default: the in-memory store)")
	fs.StringVar(cluster, "redis-cluster", "", "Redis Cluster seed nodes, comma-separated host:port; the user, password and TLS as for --redis (default: none)")
	fs.StringVar(&o.HTTPAddr, "http", "127.0.0.1:8080", "HTTP address: POST /json, GET /healthcheck, GET /metrics")
	fs.StringVar(&o.GRPCAddr, "grpc", "127.0.0.1:8081", "gRPC address: envoy.service.ratelimit.v3.RateLimitService, grpc.health.v1.Health, reflection")
	fs.StringVar(&o.DebugAddr, "debug", "", "loopback address for pprof at /debug/pprof/, e.g. 127.0.0.1:6060 (default: off; other addresses are refused)")
	fs.StringVar(mode, "failure-mode", string(rules.FailOpen), "open or closed, for domains that set no failure_mode")
	fs.IntVar(&o.MaxKeys, "max-keys", DefaultMaxKeys, "keys the in-memory store holds at most; a new key past it gets its domain's failure mode")
	fs.DurationVar(&o.StoreTimeout, "store-timeout", DefaultStoreTimeout, "a store call's deadline, past which a silent store is judged down")
	fs.Func("redis-eviction-policy", store.EvictionUsage, store.EvictionPolicyFlag(&o.RedisEvictionPolicy))
	redisFlags(fs, o) // redisflags.go: user, TLS, Sentinel
	fs.BoolVar(&o.ResponseHeaders, "response-headers", false, "add RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (the descriptor closest to its limit) to each response, for Envoy to pass to the client (default false)")
	fs.DurationVar(&o.StorePatience, "store-patience", DefaultStorePatience, "how long the store may answer nothing before a waiting decision takes its failure mode")
	fs.StringVar(&o.LogFormat, "log-format", LogText, "the log on stdout, one record a line: text (key=value) or json")
	fs.TextVar(&o.LogLevel, "log-level", slog.LevelInfo, "the least severe `level` logged: debug, info, warn or error")
	fs.StringVar(&o.AdminAddr, "admin", "127.0.0.1:8082", "admin address: GET /healthcheck and GET /metrics, on a listener with a connection cap and timeouts of its own that floods on --grpc and --http never reach (\"\": none)")
	fs.IntVar(&o.MaxConnsPerClient, "max-conns-per-client", server.MaxConnsPerClient, fmt.Sprintf("connections one client address may hold on --grpc and on --http (of %d each); past it a new one is closed at once. Raise it for clients behind one NAT", server.MaxConns))
	fs.BoolVar(&o.HealthChecksStore, "health-checks-store", false, "answer /healthcheck 503 and gRPC health NOT_SERVING while a node of the store does not answer a ping (default false: health says only that the service runs)")
	return fs
}

// usage is serve's usage.
func usage(fs *flag.FlagSet, w io.Writer) {
	Usage(fs, w, "usage: tui serve [flags]   (a flag takes one dash or two; SIGINT or SIGTERM drains and stops)")
}

// Usage prints a command's usage: its line, then every flag with its
// default, as the flag package prints them.
func Usage(fs *flag.FlagSet, w io.Writer, line string) {
	fmt.Fprintln(w, line)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// oneLine keeps an error to its first line.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
