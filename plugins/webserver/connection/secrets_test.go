package connection

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock so expiry is tested without sleeping.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestNewSecretIsRandomAndURLSafe(t *testing.T) {
	a, b := newSecret(), newSecret()
	if a == b || len(a) != 43 {
		t.Fatalf("secrets %q %q: want distinct 43-char base64url", a, b)
	}
	if strings.ContainsAny(a, "+/=") {
		t.Fatalf("secret %q is not URL safe", a)
	}
}

func TestSecretSetExpiresLazily(t *testing.T) {
	clk := newFakeClock()
	s := newSecretSet(time.Minute, clk.Now)
	sec, exp := s.add()
	if !exp.Equal(clk.Now().Add(time.Minute)) {
		t.Fatalf("expiry %v", exp)
	}
	if s.take("other") || s.take("") {
		t.Fatal("unknown secret taken")
	}
	clk.Advance(time.Minute)
	s.add() // sweeps
	s.mu.Lock()
	n := len(s.expires)
	s.mu.Unlock()
	if n != 1 {
		t.Fatalf("expired secret kept: %d entries", n)
	}
	if s.take(sec) {
		t.Fatal("expired secret taken")
	}
}

func TestSecretSetTakeIsSingleUse(t *testing.T) {
	clk := newFakeClock()
	s := newSecretSet(time.Minute, clk.Now)
	sec, _ := s.add()
	if !s.take(sec) {
		t.Fatal("first take failed")
	}
	if s.take(sec) {
		t.Fatal("second take succeeded")
	}
	late, _ := s.add()
	clk.Advance(2 * time.Minute)
	if s.take(late) {
		t.Fatal("expired secret taken")
	}
}

func TestSecretSetStoresOnlyHashes(t *testing.T) {
	s := newSecretSet(time.Minute, nil)
	sec, _ := s.add()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.expires {
		if strings.Contains(string(k[:]), sec) {
			t.Fatal("plaintext secret stored")
		}
	}
}

func TestSecretSetClear(t *testing.T) {
	s := newSecretSet(time.Minute, nil)
	sec, _ := s.add()
	s.clear()
	if s.take(sec) {
		t.Fatal("cleared secret valid")
	}
}
