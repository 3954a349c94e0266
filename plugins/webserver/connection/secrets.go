package connection

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
)

// newSecret returns 32 random bytes, base64url encoded. crypto/rand.Read
// cannot fail on supported platforms (Go 1.24+), so there is no error path.
func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// loginLinks hold the one-time login-link tokens: a secretSet in memory
// for one host, sharedLinks in a shared backend's document for several
// nodes (a link any node minted works on any node, once).
type loginLinks interface {
	// mint makes a new secret and returns it with its expiry.
	mint(ctx context.Context) (string, time.Time, error)
	// redeem consumes secret: it is valid at most once. An error (the
	// store cannot be read) is no admission.
	redeem(ctx context.Context, secret string) (bool, error)
	// forget drops what this process alone holds (the service closes).
	forget()
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

func (s *secretSet) mint(context.Context) (string, time.Time, error) {
	secret, exp := s.add()
	return secret, exp, nil
}

func (s *secretSet) redeem(_ context.Context, secret string) (bool, error) {
	return s.take(secret), nil
}

func (s *secretSet) forget() { s.clear() }

func (s *secretSet) sweepLocked(now time.Time) {
	for k, exp := range s.expires {
		if !now.Before(exp) {
			delete(s.expires, k)
		}
	}
}

// maxSharedLinks bounds the live login links a shared document keeps
// (the oldest go first); minting one takes a host token.
const maxSharedLinks = 1000

// sharedLinks keep the login-link tokens in a state document (a shared
// backend's "login-links"), by their SHA-256 only, so a link minted on one
// node is redeemed on any, once: redeeming removes it under the
// document's lock, so of two nodes redeeming one link at once only one
// succeeds. Expired links are dropped whenever the document is written.
type sharedLinks struct {
	doc statefile.Doc
	ttl time.Duration
	now func() time.Time
}

// linkRecord is what is kept of a login link.
type linkRecord struct {
	SHA256    string    `json:"sha256"`
	ExpiresAt time.Time `json:"expiresAt"`
}

type linksFile struct {
	Links []linkRecord `json:"links"`
}

func parseLinks(where string, data []byte) (linksFile, error) {
	var f linksFile
	if len(strings.TrimSpace(string(data))) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return linksFile{}, fmt.Errorf("connection: parse login links %s: %w", where, err)
	}
	return f, nil
}

func (l *sharedLinks) live(links []linkRecord, now time.Time) []linkRecord {
	return slices.DeleteFunc(links, func(r linkRecord) bool { return !now.Before(r.ExpiresAt) })
}

func (l *sharedLinks) mint(ctx context.Context) (string, time.Time, error) {
	secret := newSecret()
	now := l.now()
	exp := now.Add(l.ttl)
	err := statefile.UpdateDoc(ctx, l.doc, parseLinks, func(f linksFile) (linksFile, bool, error) {
		f.Links = append(l.live(f.Links, now), linkRecord{SHA256: HashToken(secret), ExpiresAt: exp})
		if n := len(f.Links); n > maxSharedLinks {
			f.Links = f.Links[n-maxSharedLinks:]
		}
		return f, true, nil
	})
	if err != nil {
		return "", time.Time{}, err
	}
	return secret, exp, nil
}

func (l *sharedLinks) redeem(ctx context.Context, secret string) (bool, error) {
	if secret == "" {
		return false, nil
	}
	hash := []byte(HashToken(secret))
	ok := false
	err := statefile.UpdateDoc(ctx, l.doc, parseLinks, func(f linksFile) (linksFile, bool, error) {
		i := slices.IndexFunc(f.Links, func(r linkRecord) bool { return subtle.ConstantTimeCompare([]byte(r.SHA256), hash) == 1 })
		if i < 0 {
			return f, false, nil
		}
		now := l.now()
		ok = now.Before(f.Links[i].ExpiresAt)
		f.Links = l.live(slices.Delete(f.Links, i, i+1), now)
		return f, true, nil
	})
	if err != nil {
		return false, err
	}
	return ok, nil
}

// forget keeps the links: they are every node's, and expire on their own.
func (l *sharedLinks) forget() {}
