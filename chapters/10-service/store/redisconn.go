package store

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// Managed Redis is reached the way its provider offers it: a URL with a
// user and a password, TLS with the provider's CA (sometimes a client
// certificate too), and a Sentinel or a Cluster in front of the primaries.
// go-redis parses the URL (redis.ParseURL) and speaks TLS; this file only
// gathers the options into one client, and refuses a combination that
// cannot work before anything is dialled.

// The environment variables `tui serve` reads the passwords from, so that
// they stay out of the command line (ps, the shell's history).
const (
	RedisPasswordEnv         = "REDIS_PASSWORD"
	RedisSentinelPasswordEnv = "REDIS_SENTINEL_PASSWORD"
)

// redisAccepts is what --redis accepts, quoted in its errors.
const redisAccepts = "host:port, redis://[user:password@]host:port[/db] or rediss://[user:password@]host:port[/db] (TLS)"

// RedisOptions are the service's Redis fields (its Options of the same
// names, documented there), to be checked and gathered by Conn.
type RedisOptions struct {
	RedisAddr             string
	RedisCluster          []string
	RedisUsername         string
	RedisPassword         string
	RedisSentinelAddrs    []string
	RedisSentinelMaster   string
	RedisSentinelPassword string
	RedisTLS              bool
	RedisTLSCA            string
	RedisTLSCert          string
	RedisTLSKey           string
	RedisTLSServerName    string
}

// RedisConn is how the service reaches Redis, checked and ready to dial.
type RedisConn struct {
	addrs            []string // the server; a Cluster's seeds; the sentinels
	cluster          bool
	master           string // Sentinel's name for the primary ("" = no Sentinel)
	username         string
	password         string
	sentinelPassword string
	db               int
	tls              *tls.Config // nil: plaintext
}

// Conn checks the Redis options and builds the connection; nil, nil
// without a Redis. Each error names the flag and what it accepts.
func (o RedisOptions) Conn() (*RedisConn, error) {
	modes := 0
	for _, set := range []bool{o.RedisAddr != "", len(o.RedisCluster) > 0, len(o.RedisSentinelAddrs) > 0} {
		if set {
			modes++
		}
	}
	if modes > 1 {
		return nil, core.BadParam("redis", "given more than once", "one of --redis, --redis-cluster or --redis-sentinel, not two")
	}
	if (o.RedisSentinelMaster != "") != (len(o.RedisSentinelAddrs) > 0) {
		return nil, core.BadParam("redis-sentinel-master", fmt.Sprintf("%q", o.RedisSentinelMaster),
			"the primary's name as the sentinels know it (sentinel monitor NAME …), given with --redis-sentinel, and only then")
	}
	if modes == 0 {
		return nil, strayRedisFlag(o)
	}
	c := &RedisConn{username: o.RedisUsername, password: o.RedisPassword, sentinelPassword: o.RedisSentinelPassword,
		cluster: len(o.RedisCluster) > 0, master: o.RedisSentinelMaster}
	wantTLS := o.RedisTLS || o.RedisTLSCA != "" || o.RedisTLSCert != "" || o.RedisTLSKey != "" || o.RedisTLSServerName != ""
	switch {
	case o.RedisAddr != "" && strings.Contains(o.RedisAddr, "://"):
		scheme, err := c.fromURL(o.RedisAddr)
		if err != nil {
			return nil, err
		}
		if scheme == "redis" && wantTLS {
			return nil, core.BadParam("redis", "redis://… with --redis-tls flags", "rediss://… for TLS (redis:// is plaintext)")
		}
		wantTLS = wantTLS || scheme == "rediss"
	case o.RedisAddr != "":
		c.addrs = []string{o.RedisAddr}
	default:
		c.addrs = slices.Concat(o.RedisCluster, o.RedisSentinelAddrs)
	}
	for _, a := range c.addrs {
		if h, p, err := net.SplitHostPort(a); err != nil || h == "" || p == "" {
			return nil, core.BadParam(c.flag(), fmt.Sprintf("%q", a), redisAccepts)
		}
	}
	if wantTLS {
		t, err := o.redisTLS()
		if err != nil {
			return nil, err
		}
		c.tls = t
	}
	return c, nil
}

// strayRedisFlag refuses a Redis flag given without a Redis to apply it to.
func strayRedisFlag(o RedisOptions) error {
	for _, f := range []struct {
		name string
		set  bool
	}{{"redis-username", o.RedisUsername != ""}, {"redis-tls", o.RedisTLS}, {"redis-tls-ca", o.RedisTLSCA != ""},
		{"redis-tls-cert", o.RedisTLSCert != ""}, {"redis-tls-key", o.RedisTLSKey != ""}, {"redis-tls-server-name", o.RedisTLSServerName != ""}} {
		if f.set {
			return core.BadParam(f.name, "given without a Redis", "only with --redis, --redis-cluster or --redis-sentinel")
		}
	}
	return nil
}

// fromURL fills c from a redis:// or rediss:// URL, parsed by go-redis,
// and returns its scheme. The password never appears in an error.
func (c *RedisConn) fromURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, password and all
		}
		return "", core.BadParam("redis", "URL ("+err.Error()+")", redisAccepts)
	}
	shown := u.Redacted()
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return "", core.BadParam("redis", shown, redisAccepts)
	}
	if u.RawQuery != "" {
		return "", core.BadParam("redis", shown, redisAccepts+"; no ?options: the service sets its own timeouts and retries")
	}
	ro, err := redis.ParseURL(raw)
	if err != nil {
		return "", core.BadParam("redis", shown, redisAccepts+" ("+err.Error()+")")
	}
	if u.User != nil {
		if c.username != "" && ro.Username != "" && c.username != ro.Username {
			return "", core.BadParam("redis-username", c.username, "the user once: in the URL or in --redis-username")
		}
		if _, has := u.User.Password(); has && c.password != "" && c.password != ro.Password {
			return "", core.BadParam("redis", shown, "the password once: in the URL or in "+RedisPasswordEnv)
		}
	}
	c.addrs, c.db = []string{ro.Addr}, ro.DB
	if ro.Username != "" {
		c.username = ro.Username
	}
	if ro.Password != "" {
		c.password = ro.Password
	}
	return u.Scheme, nil
}

// redisTLS builds the client's TLS settings from the files named.
func (o RedisOptions) redisTLS() (*tls.Config, error) {
	t := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.RedisTLSServerName}
	if o.RedisTLSCA != "" {
		pem, err := os.ReadFile(o.RedisTLSCA)
		if err != nil {
			return nil, core.BadParam("redis-tls-ca", o.RedisTLSCA, "a readable PEM file of CA certificates ("+err.Error()+")")
		}
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM(pem) {
			return nil, core.BadParam("redis-tls-ca", o.RedisTLSCA, "a PEM file holding at least one CA certificate (none found in it)")
		}
	}
	if (o.RedisTLSCert == "") != (o.RedisTLSKey == "") {
		return nil, core.BadParam("redis-tls-cert", fmt.Sprintf("%q with --redis-tls-key %q", o.RedisTLSCert, o.RedisTLSKey),
			"a client certificate and its key, both or neither")
	}
	if o.RedisTLSCert != "" {
		pair, err := tls.LoadX509KeyPair(o.RedisTLSCert, o.RedisTLSKey)
		if err != nil {
			return nil, core.BadParam("redis-tls-cert", o.RedisTLSCert, "a PEM certificate whose key is --redis-tls-key ("+err.Error()+")")
		}
		t.Certificates = []tls.Certificate{pair}
	}
	return t, nil
}

// flag is the flag the addresses came from.
func (c *RedisConn) flag() string {
	switch {
	case c.cluster:
		return "redis-cluster"
	case c.master != "":
		return "redis-sentinel"
	}
	return "redis"
}

// client dials nothing yet: it returns the go-redis client for c. A call
// is never retried by go-redis (the Guard judges a failure), and a dial
// waits at most dialTimeout.
func (c *RedisConn) client(dialTimeout time.Duration) (redis.UniversalClient, distributed.Pipeliner) {
	switch {
	case c.cluster:
		cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.addrs, Username: c.username, Password: c.password,
			TLSConfig: c.tls, ContextTimeoutEnabled: true, MaxRetries: -1, DialerRetries: 1, DialTimeout: dialTimeout})
		return cc, cc
	case c.master != "":
		fc := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: c.master, SentinelAddrs: c.addrs,
			SentinelPassword: c.sentinelPassword, Username: c.username, Password: c.password, DB: c.db,
			TLSConfig: c.tls, ContextTimeoutEnabled: true, MaxRetries: -1, DialerRetries: 1, DialTimeout: dialTimeout})
		return fc, fc
	}
	rc := redis.NewClient(&redis.Options{Addr: c.addrs[0], Username: c.username, Password: c.password, DB: c.db,
		TLSConfig: c.tls, ContextTimeoutEnabled: true, MaxRetries: -1, DialerRetries: 1, DialTimeout: dialTimeout})
	return rc, rc
}

// String names the Redis for the log and the errors, without its password.
func (c *RedisConn) String() string {
	s := "Redis " + c.addrs[0]
	switch {
	case c.cluster:
		s = "Redis Cluster " + strings.Join(c.addrs, ",")
	case c.master != "":
		s = fmt.Sprintf("Redis primary %q via Sentinel %s", c.master, strings.Join(c.addrs, ","))
	}
	var notes []string
	if c.tls != nil {
		notes = append(notes, "TLS")
	}
	if c.username != "" {
		notes = append(notes, "user "+c.username)
	}
	if c.password != "" {
		notes = append(notes, "password set")
	}
	if c.db != 0 {
		notes = append(notes, fmt.Sprintf("db %d", c.db))
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}
