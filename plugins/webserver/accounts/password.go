package accounts

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
	"go.uber.org/zap"
)

// The password rules: long enough to resist guessing through the
// throttle, short enough that hashing one costs nothing extra.
const (
	minPasswordRunes = 8
	maxPasswordBytes = 256
)

// The throttle: at most maxFailures failed sign-ins per name within
// failureWindow; the next attempt waits until the oldest leaves the window.
const (
	maxFailures   = 5
	failureWindow = 15 * time.Minute
)

// checkPasswordRules is CodeWeakPassword for a password that breaks the rules.
func checkPasswordRules(password string) error {
	if utf8.RuneCountInString(password) < minPasswordRunes || len(password) > maxPasswordBytes {
		return &Error{Code: CodeWeakPassword, Message: fmt.Sprintf("a password must be at least %d characters long and at most %d bytes", minPasswordRunes, maxPasswordBytes)}
	}
	return nil
}

func (s *Store) hashPassword(password string) (string, error) {
	h, err := argon2id.CreateHash(password, &s.params)
	if err != nil {
		return "", fmt.Errorf("accounts: hash password: %w", err)
	}
	return h, nil
}

// dummyHash is a hash of a random password made with the store's
// parameters: what an unknown name's password is compared with, so that
// answer takes as long as a wrong password.
func (s *Store) dummyHash() string {
	s.dummyOnce.Do(func() {
		h, err := s.hashPassword(newSecret())
		if err != nil {
			// Cannot happen (CreateHash fails only when the system's
			// randomness does); compare then fails fast, which is safe.
			s.log.Error("accounts: dummy hash", zap.Error(err))
		}
		s.dummy = h
	})
	return s.dummy
}

// CheckPassword signs name in with password and returns who it is. An
// unknown name, a wrong password and an account without a password are the
// one error CodeBadCredentials, and take about as long (an unknown name is
// checked against a dummy hash).
//
// After maxFailures (5) failures for a name within 15 minutes, further
// attempts for that name are CodeRateLimited, with RetryAfter the seconds
// until the oldest failure leaves the window, and compute no hash; a
// success clears the name's failures. The count is kept in memory, per
// Store.
func (s *Store) CheckPassword(name, password string) (Person, error) {
	key := normalizeName(name)
	valid := true
	if _, err := validName(key); err != nil {
		// No one has this name, so no one's account needs protecting;
		// keeping no count for it keeps the throttle's memory bounded.
		valid = false
	}
	if valid {
		if wait, ok := s.throttle.begin(key, s.now()); !ok {
			return Person{}, &Error{Code: CodeRateLimited, Message: fmt.Sprintf("too many failed sign-ins for this name; try again in %d seconds", wait), RetryAfter: wait}
		}
	}
	p, match, err := s.checkPassword(key, password)
	if err != nil {
		// The file could not be read: not the person's failure.
		if valid {
			s.throttle.cancel(key)
		}
		return Person{}, err
	}
	if valid && s.throttle.end(key, s.now(), match) {
		s.log.Warn("sign-ins throttled after repeated failures", zap.String("name", key))
	}
	if !match {
		return Person{}, errBadCredentials()
	}
	return p, nil
}

// checkPassword does the comparison: always exactly one hash, against the
// person's or a dummy.
func (s *Store) checkPassword(name, password string) (Person, bool, error) {
	p, ok, err := s.ByName(name)
	if err != nil {
		return Person{}, false, err
	}
	if len(password) > maxPasswordBytes {
		// Too long to be anyone's password; hash a prefix so the cost is
		// bounded and the time the same.
		password, ok = password[:maxPasswordBytes], false
	}
	hash := p.PasswordHash
	if !ok || hash == "" {
		hash, ok = s.dummyHash(), false
	}
	match, err := s.compare(password, hash)
	if err != nil {
		if ok {
			// The file's hashes are checked when it is read, so this is
			// a hash in a format the package no longer understands.
			s.log.Error("accounts: password hash unusable", zap.String("name", p.Name), zap.Error(err))
		}
		return Person{}, false, nil
	}
	if !ok || !match {
		return Person{}, false, nil
	}
	return p, true, nil
}

// throttle counts failed sign-ins per name.
type throttle struct {
	mu     sync.Mutex
	byName map[string]*attempts
}

// attempts are one name's recent failures and the checks under way: those
// count against the limit too, so many parallel guesses cannot all slip in
// before the first failure is recorded.
type attempts struct {
	failures []time.Time // within the window, oldest first, at most maxFailures
	inFlight int
}

// sweepAbove is how many names the throttle holds before it drops those
// with nothing left in the window.
const sweepAbove = 1024

// begin admits an attempt for name at now, or reports how many seconds
// (at least 1) until one would be admitted.
func (t *throttle) begin(name string, now time.Time) (wait int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.byName) > sweepAbove {
		for n, a := range t.byName {
			if a.prune(now); a.idle() {
				delete(t.byName, n)
			}
		}
	}
	a := t.byName[name]
	if a == nil {
		a = &attempts{}
		t.byName[name] = a
	}
	a.prune(now)
	if len(a.failures)+a.inFlight >= maxFailures {
		wait := 1 // full only with checks under way: they end within a second
		if len(a.failures) >= maxFailures {
			next := a.failures[len(a.failures)-maxFailures].Add(failureWindow)
			wait = max(1, int((next.Sub(now)+time.Second-1)/time.Second))
		}
		return wait, false
	}
	a.inFlight++
	return 0, true
}

// end records how an attempt begun for name went and reports whether the
// name has just reached the limit.
func (t *throttle) end(name string, now time.Time, success bool) (limited bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.byName[name]
	if a == nil {
		return false // reset while the check ran
	}
	a.inFlight = max(0, a.inFlight-1)
	if success {
		a.failures = nil
	} else {
		a.failures = append(a.failures, now)
		if n := len(a.failures); n > maxFailures {
			a.failures = append(a.failures[:0], a.failures[n-maxFailures:]...)
		}
		limited = len(a.failures) == maxFailures
	}
	if a.idle() {
		delete(t.byName, name)
	}
	return limited
}

// cancel ends an attempt begun for name without counting it.
func (t *throttle) cancel(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a := t.byName[name]; a != nil {
		a.inFlight = max(0, a.inFlight-1)
		if a.idle() {
			delete(t.byName, name)
		}
	}
}

// reset forgets name's failures (its password was just set).
func (t *throttle) reset(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a := t.byName[name]; a != nil {
		a.failures = nil
		if a.idle() {
			delete(t.byName, name)
		}
	}
}

// prune drops the failures that have left the window.
func (a *attempts) prune(now time.Time) {
	cut := now.Add(-failureWindow)
	i := 0
	for i < len(a.failures) && !a.failures[i].After(cut) {
		i++
	}
	a.failures = a.failures[i:]
}

func (a *attempts) idle() bool { return len(a.failures) == 0 && a.inFlight == 0 }
