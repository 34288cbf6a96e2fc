package framing

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

const aliceKey = "alice.0123456789abcdefXYZ"

func TestKeyStoreVerifiesTheSecret(t *testing.T) {
	s := NewMemoryKeyStore()
	if err := s.Add(aliceKey, Account{UserID: "u-alice", Plan: Paid}); err != nil {
		t.Fatal(err)
	}
	a, ok := s.Lookup(aliceKey)
	if !ok || a != (Account{KeyID: "alice", UserID: "u-alice", Plan: Paid}) {
		t.Fatalf("Lookup(the issued key) = %+v, %v", a, ok)
	}
	for _, bad := range []string{
		"alice.0123456789abcdefXYz", // one character of the secret off
		"alice.0123456789abcdef",    // a prefix of the secret
		"bob.0123456789abcdefXYZ",   // the right secret under another id
		"ALICE.0123456789abcdefXYZ", // ids are case-sensitive
		"alice", "", ".", "alice.", strings.Repeat("a", 500),
	} {
		if a, ok := s.Lookup(bad); ok {
			t.Errorf("Lookup(%q) = %+v, want unknown", bad, a)
		}
	}
}

// TestKeyStoreKeepsOnlyDigests: the store holds the SHA-256 of each secret,
// never the secret.
func TestKeyStoreKeepsOnlyDigests(t *testing.T) {
	s := NewMemoryKeyStore()
	if err := s.Add(aliceKey, Account{Plan: Free}); err != nil {
		t.Fatal(err)
	}
	rec := s.byID["alice"]
	if rec.digest != sha256.Sum256([]byte("0123456789abcdefXYZ")) {
		t.Fatal("the stored digest is not the SHA-256 of the secret")
	}
	if strings.Contains(rec.acct.KeyID+rec.acct.UserID+rec.acct.Plan.Name, "0123456789abcdef") {
		t.Fatalf("the secret is stored in the record %+v", rec.acct)
	}
}

func TestKeyStoreAddRefusesBadRecords(t *testing.T) {
	s := NewMemoryKeyStore()
	if err := s.Add(aliceKey, Account{Plan: Free}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, key string
		a         Account
		param     string
	}{
		{"same id again", "alice.ffffffffffffffffffff", Account{Plan: Free}, "API key id"},
		{"no plan", "bob.0123456789abcdefXYZ", Account{}, "plan"},
		{"plan without a limit", "bob.0123456789abcdefXYZ", Account{Plan: Plan{Name: "x"}}, "plan limit"},
		{"long user id", "bob.0123456789abcdefXYZ", Account{UserID: strings.Repeat("u", MaxIDLen+1), Plan: Free}, "user id"},
		{"short secret", "bob.short", Account{Plan: Free}, "API key secret"},
	} {
		var pe *core.ParamError
		if err := s.Add(c.key, c.a); !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: err %v, want a ParamError naming %s", c.name, err, c.param)
		}
	}
}

// TestSplitAPIKeyNamesThePartAndTheCap: a malformed key is refused with the
// part and its cap, and the error never quotes the key.
func TestSplitAPIKeyNamesThePartAndTheCap(t *testing.T) {
	long := func(n int) string { return strings.Repeat("k", n) }
	for _, c := range []struct {
		key, param, accept string
	}{
		{long(MaxAPIKeyLen + 1), "X-API-Key header", "at most 193 bytes: <id>.<secret>"},
		{"nodot" + long(20), "X-API-Key header", "<id>.<secret>"},
		{"." + long(20), "API key id", "1 to 64 bytes"},
		{long(MaxIDLen+1) + "." + long(20), "API key id", "1 to 64 bytes"},
		{"id." + long(MinSecretLen-1), "API key secret", "16 to 128 bytes"},
		{"id." + long(MaxSecretLen+1), "API key secret", "16 to 128 bytes"},
		{"id|route:/x." + long(20), "X-API-Key header", "[A-Za-z0-9_-] and one dot"},
		{"id." + long(20) + ".x", "X-API-Key header", "[A-Za-z0-9_-] and one dot"},
	} {
		_, _, err := SplitAPIKey(c.key)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param || pe.Accept != c.accept {
			t.Errorf("SplitAPIKey(%.30q…): err %v, want %s with %q", c.key, err, c.param, c.accept)
			continue
		}
		if strings.Contains(err.Error(), long(16)) {
			t.Errorf("the error quotes the key: %v", err)
		}
	}
	if id, secret, err := SplitAPIKey(aliceKey); err != nil || id != "alice" || secret != "0123456789abcdefXYZ" {
		t.Errorf("SplitAPIKey(%q) = %q, %q, %v", aliceKey, id, secret, err)
	}
}

func TestNewAPIKeyIsVerifiable(t *testing.T) {
	s := NewMemoryKeyStore()
	k1, err1 := NewAPIKey("k1")
	k2, err2 := NewAPIKey("k2")
	if err1 != nil || err2 != nil || k1[3:] == k2[3:] {
		t.Fatalf("keys %q %q (%v %v)", k1, k2, err1, err2)
	}
	if err := s.Add(k1, Account{Plan: Free}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Lookup(k1); !ok {
		t.Fatal("an issued key does not verify")
	}
	if _, ok := s.Lookup("k1" + k2[2:]); ok {
		t.Fatal("k1's id with k2's secret verified")
	}
	if _, err := NewAPIKey("bad id"); err == nil {
		t.Fatal("an id with a space was issued")
	}
}
