package store

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRedisURLParsed: go-redis's ParseURL gives the address, user,
// password and database; the log line names all but the password.
func TestRedisURLParsed(t *testing.T) {
	c, err := RedisOptions{RedisAddr: "redis://ann:pa55@10.0.0.7:6380/2"}.Conn()
	if err != nil {
		t.Fatal(err)
	}
	if c.addrs[0] != "10.0.0.7:6380" || c.username != "ann" || c.password != "pa55" || c.db != 2 || c.tls != nil {
		t.Errorf("parsed %+v", *c)
	}
	if got, want := c.String(), "Redis 10.0.0.7:6380 (user ann, password set, db 2)"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	c, err = RedisOptions{RedisAddr: "rediss://10.0.0.7:6380", RedisPassword: "from-env"}.Conn()
	if err != nil || c.password != "from-env" || c.tls == nil || c.tls.ServerName != "" {
		t.Errorf("rediss:// with the password from the environment: %v %+v", err, c)
	}
}

// TestRedisClientTakesAuthAndTLS: the user, the password and TLS reach the
// go-redis client of each kind, a Cluster's and Sentinel's primary too.
func TestRedisClientTakesAuthAndTLS(t *testing.T) {
	for _, o := range []RedisOptions{
		{RedisAddr: "rediss://ann:pw@127.0.0.1:1"},
		{RedisCluster: []string{"127.0.0.1:1", "127.0.0.1:2"}, RedisUsername: "ann", RedisPassword: "pw", RedisTLS: true},
		{RedisSentinelAddrs: []string{"127.0.0.1:1"}, RedisSentinelMaster: "m", RedisUsername: "ann", RedisPassword: "pw", RedisTLS: true},
	} {
		conn, err := o.Conn()
		if err != nil {
			t.Fatal(err)
		}
		client, _ := conn.client(time.Second)
		var user, pass string
		var tlsOn bool
		switch c := client.(type) {
		case *redis.ClusterClient:
			user, pass, tlsOn = c.Options().Username, c.Options().Password, c.Options().TLSConfig != nil
		case *redis.Client:
			user, pass, tlsOn = c.Options().Username, c.Options().Password, c.Options().TLSConfig != nil
		}
		_ = client.Close()
		if user != "ann" || pass != "pw" || !tlsOn {
			t.Errorf("%v: a %T with user %q, password %q, TLS %v", conn, client, user, pass, tlsOn)
		}
	}
}
