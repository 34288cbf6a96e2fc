package store

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// Before it reads the eviction policy, the service PINGs Redis once: a
// server it cannot reach or log in to is refused at start, whatever
// --redis-eviction-policy says, and the error names the cause and the fix
// for that cause. Without it, a Redis asking for a password looked like a
// server that disables CONFIG, and the advice for that (the flag) started a
// service whose every decision failed.

// pingRedis is the start-up PING; its error says what went wrong and what
// to do about it.
func pingRedis(ctx context.Context, client redis.UniversalClient, c *RedisConn) error {
	err := client.Ping(ctx).Err()
	if err == nil {
		return nil
	}
	return fmt.Errorf("%v: PING failed: %s", c, pingCause(err, c))
}

// pingCause explains a failed PING: the cause first, then its fix.
func pingCause(err error, c *RedisConn) string {
	if why := tlsCause(err); why != "" {
		return "TLS handshake failed (" + err.Error() + "): " + why
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "NOAUTH"):
		return "the server asks for a password (NOAUTH): give it in " + RedisPasswordEnv +
			" or in the URL, redis://:PASSWORD@host:port (with an ACL user: redis://USER:PASSWORD@… or --redis-username)"
	case strings.HasPrefix(msg, "WRONGPASS"):
		return "the server refused the user and password (" + msg + "): check " + RedisPasswordEnv +
			" or the URL's password, and the user (--redis-username or the URL's; \"default\" when none is given)"
	case strings.Contains(msg, "without any password configured"):
		return "a password was given but the server has none (" + msg + "): drop it, or set requirepass on the server"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (" + msg + "): nothing listens there; check the address and port, and that Redis runs " +
			"(a TLS-only Redis listens on its tls-port)"
	}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns):
		return "the host name does not resolve (" + msg + "): check the host in " + "--" + c.flag()
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		why := "no answer in time (" + msg + "): the address is unreachable from here (a firewall, a security group, " +
			"another network), or the server is stopped or paused"
		if c.tls != nil { // a plaintext Redis reads a TLS hello as a command line that never ends
			why += "; or the port speaks plaintext, and the TLS handshake waits for an answer that never comes: dial the server's tls-port"
		}
		return why
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
		fix := "a TLS-only Redis closes a plaintext connection: use rediss:// or --redis-tls"
		if c.tls != nil {
			fix = "the server may have refused the client certificate: give one its CA signed, with --redis-tls-cert and --redis-tls-key"
		}
		return "the server closed the connection (" + msg + "): " + fix
	case c.master != "" && strings.HasSuffix(msg, "redis: nil"):
		return fmt.Sprintf("the sentinels know no primary named %q (%s): give the name in their sentinel monitor line with --redis-sentinel-master", c.master, msg)
	case c.master != "" && (strings.Contains(msg, "sentinel") || strings.Contains(msg, "master")):
		return msg + ": check --redis-sentinel (the sentinels' addresses) and --redis-sentinel-master (the name in their sentinel monitor line)"
	}
	return msg
}

// tlsCause explains a TLS failure, or is "" if err is not one.
func tlsCause(err error) string {
	var unknownCA x509.UnknownAuthorityError
	var wrongHost x509.HostnameError
	var invalid x509.CertificateInvalidError
	var notTLS tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownCA):
		return "the server's certificate is not signed by a CA this service trusts: give its CA with --redis-tls-ca"
	case errors.As(err, &wrongHost):
		return "the server's certificate does not name the host dialled: connect by a name it holds, " +
			"or give that name with --redis-tls-server-name"
	case errors.As(err, &invalid):
		return "the server's certificate is not valid now (expired, or not for a server): renew it at the server"
	case errors.As(err, &notTLS):
		return "the server does not speak TLS on that port: use redis:// without TLS flags, or the server's tls-port"
	case strings.Contains(err.Error(), "remote error: tls:"):
		return "the server refused this client's certificate (or got none): give one its CA signed, with --redis-tls-cert and --redis-tls-key"
	case strings.Contains(err.Error(), "tls:"):
		return "check --redis-tls-ca, --redis-tls-cert and --redis-tls-key, and --redis-tls-server-name"
	}
	return ""
}
