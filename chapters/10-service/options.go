package service

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// Options configures a Service. The zero value is a service on the example
// rules and the in-memory store, with no listener.
type Options struct {
	Config       string            // rules file or directory; "" = the chapter's example rules (embedded)
	RedisAddr    string            // "" and no RedisCluster: in-memory store
	RedisCluster []string          // seed nodes of a Redis Cluster
	HTTPAddr     string            // e.g. "127.0.0.1:0"; "" = no HTTP listener
	GRPCAddr     string            // e.g. "127.0.0.1:0"; "" = no gRPC listener
	DebugAddr    string            // pprof at /debug/pprof/, on a loopback address only (server/debug.go); "" = none
	FailureMode  rules.FailureMode // the default for domains that set none ("" = FailOpen)

	// StoreTimeout is one store call's deadline, enforced by chapter 06's
	// Guard (0: DefaultStoreTimeout).
	StoreTimeout time.Duration
	// StorePatience is how long the store may answer nothing at all before
	// a decision waiting on it past StoreTimeout takes its domain's failure
	// mode (0: DefaultStorePatience). A decision that waits while the store
	// answers others is waiting in the service's own queue, not on a dead
	// store (chapter 06's Guard, Patience).
	StorePatience time.Duration
	// MaxKeys bounds the keys the in-memory store holds (0: DefaultMaxKeys).
	// A new key past it is answered by its domain's failure mode (open: OK,
	// counted nowhere; closed: ErrUnavailable, 503), and both are counted in
	// ratelimit_store_full_total; a live counter is never dropped for it.
	MaxKeys int
	// MaxStoreCalls is how many store calls may be in flight at once
	// (0: DefaultMaxStoreCalls). A decision past it waits for a place, on
	// its caller's deadline and not the store's: the queue in front of the
	// store is bounded, and its wait is never taken for a slow store.
	MaxStoreCalls int
	// DenyCache is how many over-limit keys the deny cache remembers
	// (0: DefaultDenyCache; negative: no deny cache).
	DenyCache int
	// ReloadEvery is how often the rules are checked for a change
	// (0: DefaultReloadEvery; negative: never).
	ReloadEvery time.Duration
	// Log receives the service's log, one record a line (nil: discarded).
	Log io.Writer
	// LogFormat is the log's form: LogText ("" too) or LogJSON (log.go).
	LogFormat string
	// LogLevel drops the records below it (the zero value: info).
	LogLevel slog.Level
	// Store, if set, is the store the service counts in, built by the
	// caller: store.NewMemory (on a clock of its own, MemoryOptions.Now:
	// the service reads the time from its store), or a store behind a
	// store.Outage switch.
	// The service closes it. With a Store, the Redis fields stay empty and
	// MaxKeys is the store's own (MemoryOptions).
	Store store.Store
	// ResponseHeaders adds RateLimit-Limit, -Remaining and -Reset to every
	// response with a limit, as the reference's LIMIT_RESPONSE_HEADERS_ENABLED (headers.go).
	ResponseHeaders bool
	// RedisEvictionPolicy states Redis's maxmemory-policy, for a server that
	// disables CONFIG; "" = read it (store/eviction.go).
	RedisEvictionPolicy string
	// AdminAddr serves /healthcheck and /metrics on a listener with its own
	// cap and timeouts, out of reach of floods on the others (server/admin.go);
	// "" = none.
	AdminAddr string
	// MaxConnsPerClient caps one client address's connections on the gRPC
	// and the HTTP listener (0: server.MaxConnsPerClient; at most server.MaxConns).
	MaxConnsPerClient int

	// HealthChecksStore makes the health the service reports follow its
	// store: /healthcheck answers 503 and gRPC health NOT_SERVING while a
	// node of the store does not answer a ping, as the reference's
	// REDIS_HEALTH_CHECK_ACTIVE_CONNECTION (storecheck.go). Without it the
	// health says only that the service runs; ratelimit_store_up is there
	// either way.
	HealthChecksStore bool

	// Connecting to Redis (store/redisconn.go). RedisAddr takes host:port,
	// redis://[user:password@]host:port[/db] or rediss://… (TLS).
	RedisUsername         string   // the ACL user, if the URL names none
	RedisPassword         string   // if the URL has none; `tui serve` reads REDIS_PASSWORD
	RedisSentinelAddrs    []string // the sentinels, instead of RedisAddr or RedisCluster
	RedisSentinelMaster   string   // the primary's name as the sentinels know it
	RedisSentinelPassword string   // the sentinels' own; `tui serve` reads REDIS_SENTINEL_PASSWORD
	RedisTLS              bool     // TLS with the system's CAs; implied by rediss:// and each field below
	RedisTLSCA            string   // PEM file of the CAs that sign the server's certificate
	RedisTLSCert          string   // PEM client certificate, for a server that asks for one
	RedisTLSKey           string   // its key
	RedisTLSServerName    string   // the name the server's certificate must hold ("" = the host dialled)
	// RedisEvictionCheckEvery is how often the running service reads
	// maxmemory-policy again (0: store.DefaultEvictionCheckEvery; negative: never).
	RedisEvictionCheckEvery time.Duration
	redis                   *store.RedisConn // built from the fields above by withDefaults; nil = in memory

	logger *slog.Logger // the log, built on Log by withLogger (log.go)
}

// Defaults of Options.
const (
	DefaultStoreTimeout = 50 * time.Millisecond
	DefaultDenyCache    = 100_000
	DefaultReloadEvery  = 100 * time.Millisecond
	// DefaultStorePatience is ten deadlines: a store silent that long is
	// down, and a service short of CPU does not see a healthy store fall
	// silent for that long.
	DefaultStorePatience = 500 * time.Millisecond
	// DefaultMaxKeys is the in-memory store's bound (store.DefaultMaxKeys).
	DefaultMaxKeys = store.DefaultMaxKeys
	// DefaultMaxStoreCalls keeps a pipeline short (the Batcher sends up to
	// four at once), so that the store answers some call every few hundred
	// microseconds even under load.
	DefaultMaxStoreCalls = 64
)

// withDefaults fills every zero field with its default and refuses a
// value outside what the service accepts, naming the option.
func (o Options) withDefaults() (Options, error) {
	if o.FailureMode == "" {
		o.FailureMode = rules.FailOpen
	}
	if _, err := rules.ParseFailureMode(string(o.FailureMode)); err != nil {
		return o, err
	}
	if o.DebugAddr != "" {
		if err := server.CheckDebugAddr(o.DebugAddr); err != nil {
			return o, err
		}
	}
	o, err := o.withStore()
	if err != nil {
		return o, err
	}
	if o.MaxConnsPerClient < 0 || o.MaxConnsPerClient > server.MaxConns {
		return o, core.BadParam("max conns per client", o.MaxConnsPerClient, fmt.Sprintf("1 to %d (MaxConns) connections", server.MaxConns))
	}
	if o.StoreTimeout == 0 {
		o.StoreTimeout = DefaultStoreTimeout
	}
	if o.StoreTimeout < 0 {
		return o, core.BadParam("store timeout", o.StoreTimeout, "a duration > 0")
	}
	if o.StorePatience == 0 {
		o.StorePatience = DefaultStorePatience
	}
	if o.StorePatience < 0 {
		return o, core.BadParam("store patience", o.StorePatience, "a duration > 0")
	}
	if o.MaxKeys == 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.MaxKeys < 0 || o.MaxKeys > 1_000_000_000 {
		return o, core.BadParam("max keys", o.MaxKeys, "1 to 1,000,000,000 keys")
	}
	if o.MaxStoreCalls == 0 {
		o.MaxStoreCalls = DefaultMaxStoreCalls
	}
	if o.MaxStoreCalls < 0 || o.MaxStoreCalls > 100_000 {
		return o, core.BadParam("max store calls", o.MaxStoreCalls, "1 to 100,000 calls in flight")
	}
	if o.DenyCache == 0 {
		o.DenyCache = DefaultDenyCache
	}
	if o.ReloadEvery == 0 {
		o.ReloadEvery = DefaultReloadEvery
	}
	return o.withLogger() // log.go
}

// limits are the listeners' limits: the tests' (tuned; zero in service)
// with the cap per client address the options set.
func (o Options) limits(tuned server.Limits) server.Limits {
	if o.MaxConnsPerClient > 0 {
		tuned.PerClient = o.MaxConnsPerClient
	}
	return tuned
}

// withStore builds the Redis connection from the Redis fields
// (store/redisconn.go), refusing them beside a Store given.
func (o Options) withStore() (Options, error) {
	redis, err := store.RedisOptions{RedisAddr: o.RedisAddr, RedisCluster: o.RedisCluster, RedisUsername: o.RedisUsername,
		RedisPassword: o.RedisPassword, RedisSentinelAddrs: o.RedisSentinelAddrs, RedisSentinelMaster: o.RedisSentinelMaster,
		RedisSentinelPassword: o.RedisSentinelPassword, RedisTLS: o.RedisTLS, RedisTLSCA: o.RedisTLSCA,
		RedisTLSCert: o.RedisTLSCert, RedisTLSKey: o.RedisTLSKey, RedisTLSServerName: o.RedisTLSServerName}.Conn()
	if err != nil {
		return o, err
	}
	o.redis = redis
	if o.Store != nil && redis != nil {
		return o, core.BadParam("store", "a Store and a Redis", "one of them: Options.Store or the Redis fields")
	}
	if o.RedisEvictionCheckEvery == 0 {
		o.RedisEvictionCheckEvery = store.DefaultEvictionCheckEvery
	}
	return o, nil
}
