package connection

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"sync"
	"time"
)

// newSecret returns 32 random bytes, base64url encoded. crypto/rand.Read
// cannot fail on supported platforms (Go 1.24+), so there is no error path.
func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// secretSet holds the one-time login-link tokens, in memory (they are
// short-lived, so losing them on a restart costs one `dsh login`), by their
// SHA-256 only, so a heap dump or debug print never reveals a usable secret.
// Because the map key is a hash of the secret, lookup timing leaks nothing an
// attacker can use to guess the secret byte by byte. Browser sessions, which
// must outlive the process, are in a SessionStore.
//
// Expiry is lazy: expired entries are dropped when touched or when a new
// secret is added, so no janitor goroutine has to be started and stopped.
type secretSet struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	expires map[[sha256.Size]byte]time.Time
}

func newSecretSet(ttl time.Duration, now func() time.Time) *secretSet {
	if now == nil {
		now = time.Now
	}
	return &secretSet{ttl: ttl, now: now, expires: map[[sha256.Size]byte]time.Time{}}
}

// add mints a new secret and returns it with its expiry.
func (s *secretSet) add() (string, time.Time) {
	secret := newSecret()
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.sweepLocked(now)
	exp := now.Add(s.ttl)
	s.expires[sha256.Sum256([]byte(secret))] = exp
	return secret, exp
}

// take consumes secret: it is valid at most once.
func (s *secretSet) take(secret string) bool {
	if secret == "" {
		return false
	}
	key := sha256.Sum256([]byte(secret))
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.expires[key]
	if !ok {
		return false
	}
	delete(s.expires, key)
	return s.now().Before(exp)
}

// clear forgets every secret (the service is closing).
func (s *secretSet) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.expires)
}

func (s *secretSet) sweepLocked(now time.Time) {
	for k, exp := range s.expires {
		if !now.Before(exp) {
			delete(s.expires, k)
		}
	}
}
