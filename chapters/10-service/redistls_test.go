//go:build !exercise10

package service

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// testCA is a certificate authority of the test's own, its files in dir.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	dir  string
	file string // the CA certificate, PEM
}

// newTestCA makes a CA named name and writes its certificate to dir.
func newTestCA(t *testing.T, dir, name string) *testCA {
	t.Helper()
	ca := &testCA{dir: dir}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	ca.cert, ca.key, ca.file, _ = writeCert(t, dir, name, tmpl, nil, nil)
	return ca
}

// issue signs a certificate for name (a server's, valid for 127.0.0.1
// and redis.test, or a client's) and returns its certificate and key files.
func (ca *testCA) issue(t *testing.T, name string, server bool) (certFile, keyFile string) {
	t.Helper()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.DNSNames, tmpl.IPAddresses = []string{"redis.test"}, []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	_, _, certFile, keyFile = writeCert(t, ca.dir, name, tmpl, ca.cert, ca.key)
	return certFile, keyFile
}

// writeCert makes a key, signs tmpl with it (parent nil) or with parent,
// and writes both as PEM.
func writeCert(t *testing.T, dir, name string, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, name+".crt", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	writeFile(t, dir, name+".key", string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})))
	return cert, key, filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
}

// tlsRedis starts a redis-server that speaks TLS only, with a certificate
// from ca, and asks each client for a certificate from ca. It returns the
// TLS address.
func tlsRedis(t *testing.T, ca *testCA) string {
	t.Helper()
	cert, key := ca.issue(t, "redis-server", true)
	tport, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	plain := spawnRedis(t, "--tls-port", strconv.Itoa(tport), "--tls-cert-file", cert, "--tls-key-file", key,
		"--tls-ca-cert-file", ca.file)
	c := redis.NewClient(&redis.Options{Addr: plain})
	defer c.Close()
	// spawnRedis waits on the plaintext port; then it is closed: TLS only.
	if err := c.ConfigSet(context.Background(), "port", "0").Err(); err != nil {
		t.Fatal(err)
	}
	return "127.0.0.1:" + strconv.Itoa(tport)
}

// TestRedisTLS: on a Redis that speaks TLS only and asks for a client
// certificate, rediss:// with the right CA and a client certificate starts
// and counts (5 of 8 admitted); the server name can be given; a wrong CA,
// a wrong server name, no client certificate, plaintext to the TLS port and
// TLS to a plaintext port each refuse to start, naming the cause and flag.
func TestRedisTLS(t *testing.T) {
	dir := t.TempDir()
	ca, other := newTestCA(t, dir, "course-ca"), newTestCA(t, dir, "other-ca")
	addr := tlsRedis(t, ca)
	cert, key := ca.issue(t, "rate-limit-service", false)
	rules := writeRules(t, limit5)
	withCert := []string{"--redis-tls-cert", cert, "--redis-tls-key", key, "--config", rules}

	s, code, stderr := serveCLI(t, append([]string{"--redis", "rediss://" + addr, "--redis-tls-ca", ca.file}, withCert...)...)
	if s == nil {
		t.Fatalf("rediss:// with the CA: exit %d, stderr %q", code, stderr)
	}
	if got := admitted(t, s, "tls", 8); got != 5 {
		t.Errorf("rediss://: %d of 8 admitted, want 5", got)
	}
	if s, code, stderr := serveCLI(t, append([]string{"--redis", addr, "--redis-tls-ca", ca.file, "--redis-tls-server-name", "redis.test"}, withCert...)...); s == nil {
		t.Errorf("host:port with --redis-tls-server-name redis.test: exit %d, stderr %q", code, stderr)
	}

	plain := spawnRedis(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"wrong CA", []string{"--redis", "rediss://" + addr, "--redis-tls-ca", other.file}, []string{"TLS handshake failed", "not signed by a CA this service trusts", "--redis-tls-ca"}},
		{"wrong name", []string{"--redis", addr, "--redis-tls-ca", ca.file, "--redis-tls-server-name", "cache.example"}, []string{"TLS handshake failed", "--redis-tls-server-name"}},
		{"plaintext to TLS", []string{"--redis", addr}, []string{"closed the connection", "use rediss://"}},
		{"TLS to plaintext", []string{"--redis", "rediss://" + plain, "--redis-tls-ca", ca.file}, []string{"no answer in time", "the port speaks plaintext", "tls-port"}},
	} {
		args := append(tc.args, "--config", rules)
		if tc.name != "plaintext to TLS" { // the certificate flags would turn TLS on
			args = append(args, withCert...)
		}
		s, code, stderr := serveCLI(t, args...)
		refusedWith(t, tc.name, s, code, stderr, tc.want, []string{"--redis-eviction-policy"})
	}
	s, code, stderr = serveCLI(t, "--redis", "rediss://"+addr, "--redis-tls-ca", ca.file)
	refusedWith(t, "no client certificate", s, code, stderr, []string{"--redis-tls-cert and --redis-tls-key"}, []string{"--redis-eviction-policy"})
}
