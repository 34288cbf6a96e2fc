package service

import (
	"flag"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"os"
	"strings"
)

// redisFlags defines serve's flags for reaching Redis beyond --redis and
// --redis-cluster: the user, TLS, Sentinel, and how often the eviction
// policy is read again (store/redisconn.go, store/evictionwatch.go). The passwords
// come from the environment (redisEnv), never from a flag that ps shows.
func redisFlags(fs *flag.FlagSet, o *Options) {
	list := func(dst *[]string) func(string) error {
		return func(v string) error { *dst = strings.Split(v, ","); return nil }
	}
	fs.StringVar(&o.RedisUsername, "redis-username", "", "Redis ACL `user` (or in the URL, redis://USER:PASSWORD@host:port); the password comes from the URL or "+store.RedisPasswordEnv+" (default: none, Redis's \"default\" user)")
	fs.Func("redis-sentinel", "Redis Sentinel `addresses`, comma-separated host:port, instead of --redis or --redis-cluster; with --redis-sentinel-master (the sentinels' own password from "+store.RedisSentinelPasswordEnv+") (default: none)", list(&o.RedisSentinelAddrs))
	fs.StringVar(&o.RedisSentinelMaster, "redis-sentinel-master", "", "the primary's `name` as the sentinels know it (their sentinel monitor line), with --redis-sentinel (default: none)")
	fs.BoolVar(&o.RedisTLS, "redis-tls", false, "TLS to Redis with the system's CAs (implied by rediss:// and by each --redis-tls-* flag) (default false)")
	fs.StringVar(&o.RedisTLSCA, "redis-tls-ca", "", "PEM `file` of the CAs that sign Redis's certificate (default: the system's)")
	fs.StringVar(&o.RedisTLSCert, "redis-tls-cert", "", "PEM client certificate `file`, for a Redis that asks for one (tls-auth-clients), with --redis-tls-key (default: none)")
	fs.StringVar(&o.RedisTLSKey, "redis-tls-key", "", "PEM `file` of the client certificate's key (default: none)")
	fs.StringVar(&o.RedisTLSServerName, "redis-tls-server-name", "", "the `name` Redis's certificate must hold (default: the host dialled)")
	fs.DurationVar(&o.RedisEvictionCheckEvery, "redis-eviction-check-every", store.DefaultEvictionCheckEvery, "how often the running service reads Redis's maxmemory-policy again; a change to a policy that may evict is logged and sets ratelimit_redis_eviction_policy_ok to 0 (a negative duration: never)")
}

// redisEnv reads the Redis passwords from the environment.
func redisEnv(o *Options) {
	o.RedisPassword = os.Getenv(store.RedisPasswordEnv)
	o.RedisSentinelPassword = os.Getenv(store.RedisSentinelPasswordEnv)
}
