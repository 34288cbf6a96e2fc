package framing

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ratelimit-course/ratelimit/core"
)

// Identify, then count. A limiter is only as good as its key: if the client
// can choose the key, it can choose a fresh budget for every request. A
// header the client writes (X-User-ID, a plan spelled into the key) is a
// claim, not an identity. The identity comes from a credential the server
// checks against what it issued, and the plan comes from the server's record
// of that credential.
//
// An API key here has a public half and a secret half, "<id>.<secret>". The
// id finds the record (and names the key in logs and limiter keys); the
// secret proves the caller holds it. The store keeps only a SHA-256 digest
// of each secret, so a leaked store leaks no usable keys, and compares
// digests in constant time, so response timing does not reveal how much of
// a guess was right.

// Limits on the shape of an API key. A value outside them is refused before
// any lookup.
const (
	MinSecretLen = 16
	MaxSecretLen = 128
	MaxAPIKeyLen = MaxIDLen + 1 + MaxSecretLen
)

// Account is the server's record of one API key.
type Account struct {
	KeyID  string // the key's public half: what the limiter counts
	UserID string // the user or tenant the key was issued to ("" for none)
	Plan   Plan   // the tier that sets the limit
}

// KeyStore verifies an API key. Lookup returns the key's Account and true
// only for a key the store issued, secret included.
type KeyStore interface {
	Lookup(apiKey string) (Account, bool)
}

// ErrUnknownKey is the answer to a well-formed key the store does not know.
// It does not say whether the id or the secret was wrong.
var ErrUnknownKey = errors.New("unknown API key")

// SplitAPIKey checks the shape of an API key, "<id>.<secret>" with an id of
// 1 to MaxIDLen and a secret of MinSecretLen to MaxSecretLen characters from
// [A-Za-z0-9_-], and returns its halves. A bad shape is a *core.ParamError
// naming the part and its cap; it never quotes the key.
func SplitAPIKey(apiKey string) (id, secret string, err error) {
	if len(apiKey) > MaxAPIKeyLen {
		return "", "", core.BadParam("X-API-Key header", fmt.Sprintf("of %d bytes", len(apiKey)),
			fmt.Sprintf("at most %d bytes: <id>.<secret>", MaxAPIKeyLen))
	}
	id, secret, ok := strings.Cut(apiKey, ".")
	if !ok {
		return "", "", core.BadParam("X-API-Key header", "without a dot", "<id>.<secret>")
	}
	if err := checkPart("API key id", id, MaxIDLen); err != nil {
		return "", "", err
	}
	if len(secret) < MinSecretLen || len(secret) > MaxSecretLen {
		return "", "", core.BadParam("API key secret", fmt.Sprintf("of %d bytes", len(secret)),
			fmt.Sprintf("%d to %d bytes", MinSecretLen, MaxSecretLen))
	}
	if !keyChars(id) || !keyChars(secret) {
		return "", "", core.BadParam("X-API-Key header", "with other characters", "[A-Za-z0-9_-] and one dot")
	}
	return id, secret, nil
}

func keyChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// NewAPIKey issues a key with the given id and a 256-bit random secret.
func NewAPIKey(id string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	k := id + "." + base64.RawURLEncoding.EncodeToString(b)
	if _, _, err := SplitAPIKey(k); err != nil {
		return "", err
	}
	return k, nil
}

// MemoryKeyStore is a KeyStore in memory, for examples and tests. It is
// safe for concurrent use.
type MemoryKeyStore struct {
	mu   sync.RWMutex
	byID map[string]storedKey
}

type storedKey struct {
	digest [sha256.Size]byte
	acct   Account
}

// NewMemoryKeyStore returns an empty store.
func NewMemoryKeyStore() *MemoryKeyStore {
	return &MemoryKeyStore{byID: map[string]storedKey{}}
}

// Add records apiKey for a, whose KeyID is set to the key's id. The key
// must have a valid shape and an id not in use, a.UserID at most MaxIDLen
// bytes, and a.Plan a name and a limit.
func (s *MemoryKeyStore) Add(apiKey string, a Account) error {
	id, secret, err := SplitAPIKey(apiKey)
	if err != nil {
		return err
	}
	if len(a.UserID) > MaxIDLen {
		return checkPart("user id", a.UserID, MaxIDLen)
	}
	if a.Plan.Name == "" {
		return core.BadParam("plan", `""`, "a named plan")
	}
	if err := core.CheckCount("plan limit", a.Plan.PerMinute); err != nil {
		return err
	}
	a.KeyID = id
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.byID[id]; dup {
		return core.BadParam("API key id", id, "an id not already in the store")
	}
	s.byID[id] = storedKey{digest: sha256.Sum256([]byte(secret)), acct: a}
	return nil
}

// absent is compared against when the id is unknown, so that an unknown id
// costs the same work as a wrong secret.
var absent [sha256.Size]byte

// Lookup verifies apiKey: its id must be in the store and the SHA-256 of its
// secret equal, compared in constant time, to the digest stored for it.
func (s *MemoryKeyStore) Lookup(apiKey string) (Account, bool) {
	id, secret, err := SplitAPIKey(apiKey)
	if err != nil {
		return Account{}, false
	}
	s.mu.RLock()
	rec, found := s.byID[id]
	s.mu.RUnlock()
	want := absent
	if found {
		want = rec.digest
	}
	got := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 || !found {
		return Account{}, false
	}
	return rec.acct, true
}
