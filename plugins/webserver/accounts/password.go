package accounts

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
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
// success clears the name's failures. The count is kept in the store's
// windows: this process's memory, or the shared backend's (Options.State),
// where every node's failures count. A throttle that cannot be counted
// (the database is not reachable) refuses the sign-in with its error.
func (s *Store) CheckPassword(ctx context.Context, name, password string) (Person, error) {
	key := normalizeName(name)
	valid := true
	if _, err := validName(key); err != nil {
		// No one has this name, so no one's account needs protecting;
		// keeping no count for it keeps the throttle's memory bounded.
		valid = false
	}
	if valid {
		wait, ok, err := s.throttle.begin(ctx, key, s.now())
		if err != nil {
			return Person{}, err
		}
		if !ok {
			return Person{}, &Error{Code: CodeRateLimited, Message: fmt.Sprintf("too many failed sign-ins for this name; try again in %d seconds", wait), RetryAfter: wait}
		}
	}
	p, match, err := s.checkPassword(ctx, key, password)
	// What the attempt came to is recorded even when the caller has
	// given up meanwhile (a cancelled read is not the person's failure).
	after := context.WithoutCancel(ctx)
	if err != nil {
		// The accounts could not be read: not the person's failure.
		if valid {
			s.throttle.cancel(after, key)
		}
		return Person{}, err
	}
	if valid && s.throttle.end(after, key, s.now(), match) {
		s.log.Warn("sign-ins throttled after repeated failures", zap.String("name", key))
	}
	if !match {
		return Person{}, errBadCredentials()
	}
	return p, nil
}

// checkPassword does the comparison: always exactly one hash, against the
// person's or a dummy.
func (s *Store) checkPassword(ctx context.Context, name, password string) (Person, bool, error) {
	p, ok, err := s.ByName(ctx, name)
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

// throttle counts sign-ins per name in sliding windows: an attempt is
// counted when it begins, so many parallel guesses cannot all slip in
// before the first failure is recorded; a failure's count stays, a success
// clears the name's, and an attempt that could not be checked is taken
// back.
type throttle struct {
	w   statefile.Windows
	log *zap.Logger
}

// throttleKey is a name's key among the windows.
func throttleKey(name string) string { return "signin:" + name }

// begin admits an attempt for name at now, or reports how many seconds
// (at least 1) until one would be admitted.
func (t *throttle) begin(ctx context.Context, name string, now time.Time) (wait int, ok bool, err error) {
	ok, retry, err := t.w.Take(ctx, throttleKey(name), now, maxFailures, failureWindow)
	if err != nil || ok {
		return 0, ok, err
	}
	return max(1, int((retry.Sub(now)+time.Second-1)/time.Second)), false, nil
}

// end records how an attempt begun for name at now went and reports
// whether the name has just reached the limit.
func (t *throttle) end(ctx context.Context, name string, now time.Time, success bool) (limited bool) {
	if success {
		t.reset(ctx, name)
		return false
	}
	n, _, err := t.w.Count(ctx, throttleKey(name), now, failureWindow)
	if err != nil {
		t.log.Warn("accounts: sign-in failures not read", zap.String("name", name), zap.Error(err))
	}
	return n == maxFailures
}

// cancel takes back an attempt begun for name without counting it.
func (t *throttle) cancel(ctx context.Context, name string) {
	if err := t.w.Undo(ctx, throttleKey(name)); err != nil {
		t.log.Warn("accounts: sign-in attempt not taken back", zap.String("name", name), zap.Error(err))
	}
}

// reset forgets name's failures (a success, or its password was just set).
func (t *throttle) reset(ctx context.Context, name string) {
	if err := t.w.Clear(ctx, throttleKey(name)); err != nil {
		t.log.Warn("accounts: sign-in failures not cleared", zap.String("name", name), zap.Error(err))
	}
}
