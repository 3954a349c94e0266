package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// Everything written survives a new Store on the same file, as after a
// restart of the host.
func TestPersistsAcrossOpen(t *testing.T) { eachPlace(t, testPersistsAcrossOpen) }

func testPersistsAcrossOpen(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	owner, created, err := s.EnsureOwner(t.Context(), "Olga")
	if err != nil || !created {
		t.Fatalf("EnsureOwner: %v %v", created, err)
	}
	bob, secret, err := s.Add(t.Context(), "bob", "bob@example.com", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvite(t.Context(), secret, "correct horse"); err != nil {
		t.Fatal(err)
	}
	carol, _, err := s.Add(t.Context(), "carol", "", 0)
	if err != nil {
		t.Fatal(err)
	}

	r := openAt(t, pl, clk)
	people, err := r.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range people {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "olga,bob,carol" {
		t.Fatalf("List = %s, want creation order olga,bob,carol", got)
	}
	if o, ok, err := r.Owner(t.Context()); err != nil || !ok || o.ID != owner.ID || !o.Owner || o.PasswordHash != "" {
		t.Fatalf("Owner = %+v %v %v", o, ok, err)
	}
	if p, ok, err := r.Get(t.Context(), bob.ID); err != nil || !ok || p.Email != "bob@example.com" || p.Invite != nil || !strings.HasPrefix(p.PasswordHash, "$argon2id$") {
		t.Fatalf("Get(bob) = %+v %v %v", p, ok, err)
	}
	if _, err := r.CheckPassword(t.Context(), "bob", "correct horse"); err != nil {
		t.Fatalf("password after reopening: %v", err)
	}
	p, ok, err := r.ByName(t.Context(), "carol")
	if err != nil || !ok || p.Invite == nil || !p.Invite.ExpiresAt.Equal(clk.Now().Add(DefaultInviteTTL)) {
		t.Fatalf("carol = %+v %v %v (want the default invite ttl)", p, ok, err)
	}
	if p.ID != carol.ID || !strings.HasPrefix(p.ID, "per_") || len(p.ID) != len("per_")+12 || p.ID == bob.ID {
		t.Fatalf("ids: %s %s", p.ID, bob.ID)
	}
	if !p.CreatedAt.Equal(clk.Now()) {
		t.Fatalf("CreatedAt = %v, want %v", p.CreatedAt, clk.Now())
	}
}

// The file is private, an object with a "people" list, and holds the
// invite's hash but never its secret (nor any password).
func TestFileIsPrivateAndHoldsNoSecret(t *testing.T) {
	path, clk := tempPath(t), newClock()
	s := openTest(t, path, clk)
	_, secret, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), secret) {
		t.Fatal("the invite secret is in the file")
	}
	if !strings.Contains(string(data), hashSecret(secret)) || !strings.HasPrefix(string(data), "{\n  \"people\": [") {
		t.Fatalf("file:\n%s", data)
	}
	if _, err := s.AcceptInvite(t.Context(), secret, "a secret password"); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if strings.Contains(string(data), "a secret password") || strings.Contains(string(data), "invite") {
		t.Fatalf("file after accepting:\n%s", data)
	}
}

// An invite works once; unknown, used and expired invites are one error.
func TestInviteIsOneTimeAndExpires(t *testing.T) { eachPlace(t, testInviteIsOneTimeAndExpires) }

func testInviteIsOneTimeAndExpires(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	_, secret, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(secret) != 43 || strings.ContainsAny(secret, "+/=") {
		t.Fatalf("secret %q is not 32 bytes of unpadded base64url", secret)
	}
	p, err := s.AcceptInvite(t.Context(), secret, "password one")
	if err != nil || p.Name != "bob" || p.Invite != nil || p.PasswordHash == "" {
		t.Fatalf("AcceptInvite = %+v, %v", p, err)
	}
	used := wantCode(t, func() error { _, err := s.AcceptInvite(t.Context(), secret, "password two"); return err }(), CodeInvalidInvite)
	if _, err := s.CheckPassword(t.Context(), "bob", "password one"); err != nil {
		t.Fatalf("a used invite changed the password: %v", err)
	}
	unknown := wantCode(t, func() error { _, err := s.AcceptInvite(t.Context(), "made-up", "password two"); return err }(), CodeInvalidInvite)
	empty := wantCode(t, func() error { _, err := s.AcceptInvite(t.Context(), "", "password two"); return err }(), CodeInvalidInvite)

	_, late, err := s.Add(t.Context(), "carol", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour - time.Second)
	clk.Add(time.Second)
	expired := wantCode(t, func() error { _, err := s.AcceptInvite(t.Context(), late, "password two"); return err }(), CodeInvalidInvite)
	for _, e := range []*Error{unknown, empty, expired} {
		if e.Message != used.Message {
			t.Fatalf("messages differ: %q vs %q", e.Message, used.Message)
		}
	}
	if used.HTTPStatus() != http.StatusForbidden {
		t.Fatalf("status %d", used.HTTPStatus())
	}

	// A new invite replaces the old one, which stops working; the
	// password in place keeps working until it is accepted.
	_, first, err := s.Reinvite(t.Context(), "bob", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	p, second, err := s.Reinvite(t.Context(), p.ID, 2*time.Hour)
	if err != nil || p.Invite == nil || !p.Invite.ExpiresAt.Equal(clk.Now().Add(2*time.Hour)) {
		t.Fatalf("Reinvite = %+v, %v", p, err)
	}
	if _, err := s.CheckPassword(t.Context(), "bob", "password one"); err != nil {
		t.Fatalf("reinvite ended the password early: %v", err)
	}
	wantCode(t, func() error { _, err := s.AcceptInvite(t.Context(), first, "password two"); return err }(), CodeInvalidInvite)
	if _, err := s.AcceptInvite(t.Context(), second, "password two"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, func() error { _, err := s.CheckPassword(t.Context(), "bob", "password one"); return err }(), CodeBadCredentials)
	if _, err := s.CheckPassword(t.Context(), "bob", "password two"); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Reinvite(t.Context(), "nobody", time.Hour)
	wantCode(t, err, CodeNotFound)
}

// A password that breaks the rules is refused before the invite is used,
// so the person can try again with the same link.
func TestBadPasswordKeepsInvite(t *testing.T) { eachPlace(t, testBadPasswordKeepsInvite) }

func testBadPasswordKeepsInvite(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	_, secret, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"", "short", "1234567", strings.Repeat("x", maxPasswordBytes+1), strings.Repeat("é", 129)} {
		_, err := s.AcceptInvite(t.Context(), secret, pw)
		e := wantCode(t, err, CodeWeakPassword)
		if !strings.Contains(e.Message, "at least 8 characters") || e.HTTPStatus() != http.StatusBadRequest {
			t.Fatalf("message %q, status %d", e.Message, e.HTTPStatus())
		}
	}
	// Eight characters are enough even when they are more bytes; 256
	// bytes are allowed.
	if err := checkPasswordRules("éééééééé"); err != nil {
		t.Fatal(err)
	}
	if err := checkPasswordRules(strings.Repeat("x", maxPasswordBytes)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvite(t.Context(), secret, "long enough"); err != nil {
		t.Fatalf("the invite was used up by bad passwords: %v", err)
	}
}

// CheckPassword: the right password signs in; everything else is one
// error, after exactly one hash comparison.
func TestCheckPassword(t *testing.T) { eachPlace(t, testCheckPassword) }

func testCheckPassword(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	if _, _, err := s.EnsureOwner(t.Context(), "olga"); err != nil {
		t.Fatal(err)
	}
	bob, secret, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvite(t.Context(), secret, "bob's password"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Add(t.Context(), "carol", "", time.Hour); err != nil { // invited, no password yet
		t.Fatal(err)
	}

	before := s.compares.Load()
	p, err := s.CheckPassword(t.Context(), " BOB ", "bob's password")
	if err != nil || p.ID != bob.ID {
		t.Fatalf("right password: %+v %v", p, err)
	}
	if n := s.compares.Load() - before; n != 1 {
		t.Fatalf("%d comparisons", n)
	}

	var msg string
	for _, c := range []struct{ name, password string }{
		{"bob", "bob's passworD"},
		{"bob", ""},
		{"bob", strings.Repeat("x", 10000)},
		{"nobody", "bob's password"},
		{"olga", "anything at all"},             // the owner has no password
		{"carol", "anything at all"},            // invited, not yet accepted
		{"Not A Valid Name!", "bob's password"}, // cannot exist
	} {
		before := s.compares.Load()
		_, err := s.CheckPassword(t.Context(), c.name, c.password)
		e := wantCode(t, err, CodeBadCredentials)
		if n := s.compares.Load() - before; n != 1 {
			t.Fatalf("%s: %d comparisons, want 1 (the same work for every failure)", c.name, n)
		}
		if msg == "" {
			msg = e.Message
		}
		if e.Message != msg || e.HTTPStatus() != http.StatusUnauthorized {
			t.Fatalf("%s: %q (%d), want %q (401)", c.name, e.Message, e.HTTPStatus(), msg)
		}
	}
}

// After five failures within 15 minutes a name is refused, without a
// hash, until the oldest failure leaves the window; a success clears the
// count; other names are not affected.
func TestThrottle(t *testing.T) { eachPlace(t, testThrottle) }

func testThrottle(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	for _, name := range []string{"bob", "carol"} {
		_, secret, err := s.Add(t.Context(), name, "", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptInvite(t.Context(), secret, name+"'s password"); err != nil {
			t.Fatal(err)
		}
	}
	fail := func(name string) error {
		t.Helper()
		_, err := s.CheckPassword(t.Context(), name, "wrong password")
		return err
	}
	for range maxFailures {
		wantCode(t, fail("bob"), CodeBadCredentials)
		clk.Add(time.Minute)
	}
	// Failures at 0..4 minutes; now it is 5 minutes: the first leaves the
	// window at 15.
	before := s.compares.Load()
	_, err := s.CheckPassword(t.Context(), "Bob", "bob's password")
	e := wantCode(t, err, CodeRateLimited)
	if e.RetryAfter != 600 || e.HTTPStatus() != http.StatusTooManyRequests {
		t.Fatalf("RetryAfter %d, status %d", e.RetryAfter, e.HTTPStatus())
	}
	if d := e.ErrorDetails(); d["retryable"] != true || d["retryAfterSec"] != 600 {
		t.Fatalf("details %v", d)
	}
	if !strings.Contains(e.Message, "600 seconds") {
		t.Fatalf("message %q", e.Message)
	}
	if n := s.compares.Load() - before; n != 0 {
		t.Fatalf("a refused attempt computed %d hashes", n)
	}
	clk.Add(9*time.Minute + 59*time.Second + 500*time.Millisecond)
	if e := wantCode(t, fail("bob"), CodeRateLimited); e.RetryAfter != 1 {
		t.Fatalf("half a second before: RetryAfter %d, want 1", e.RetryAfter)
	}
	// Another name is not affected.
	if _, err := s.CheckPassword(t.Context(), "carol", "carol's password"); err != nil {
		t.Fatal(err)
	}

	// At 15 minutes the first failure has left the window: one more
	// attempt, and after its failure the next one waits for the second.
	clk.Add(500 * time.Millisecond)
	wantCode(t, fail("bob"), CodeBadCredentials)
	if e := wantCode(t, fail("bob"), CodeRateLimited); e.RetryAfter != 60 {
		t.Fatalf("RetryAfter %d, want 60", e.RetryAfter)
	}
	clk.Add(time.Minute)
	if _, err := s.CheckPassword(t.Context(), "bob", "bob's password"); err != nil {
		t.Fatalf("the window allows again: %v", err)
	}

	// The success cleared the count: five more failures before a refusal.
	for range maxFailures {
		wantCode(t, fail("bob"), CodeBadCredentials)
	}
	if e := wantCode(t, fail("bob"), CodeRateLimited); e.RetryAfter != int(failureWindow/time.Second) {
		t.Fatalf("RetryAfter %d", e.RetryAfter)
	}
	// Setting the password clears it too.
	bob, _, _ := s.ByName(t.Context(), "bob")
	if err := s.SetPassword(t.Context(), bob.ID, "a new password"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckPassword(t.Context(), "bob", "a new password"); err != nil {
		t.Fatal(err)
	}

	// Unknown names are throttled like known ones (the answer must not
	// tell them apart).
	for range maxFailures {
		wantCode(t, fail("nobody"), CodeBadCredentials)
	}
	wantCode(t, fail("nobody"), CodeRateLimited)
}

// Many guesses at once cannot get past the limit before the first
// failures are counted.
func TestThrottleParallel(t *testing.T) { eachPlace(t, testThrottleParallel) }

func testThrottleParallel(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { _, _ = s.CheckPassword(t.Context(), "bob", "wrong password") })
	}
	wg.Wait()
	if n := s.compares.Load(); n > maxFailures {
		t.Fatalf("%d guesses were hashed, want at most %d", n, maxFailures)
	}
	// Every attempt that was let in counted, as a failure.
	if n, _, err := s.throttle.w.Count(context.Background(), throttleKey("bob"), clk.Now(), failureWindow); err != nil || n != int(s.compares.Load()) {
		t.Fatalf("%d failures counted (%v) for %d hashed", n, err, s.compares.Load())
	}
}

func TestSetPassword(t *testing.T) { eachPlace(t, testSetPassword) }

func testSetPassword(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	owner, _, err := s.EnsureOwner(t.Context(), "olga")
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SetPassword(t.Context(), owner.ID, "short"), CodeWeakPassword)
	wantCode(t, s.SetPassword(t.Context(), "per_000000000000", "long enough"), CodeNotFound)
	bob, secret, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPassword(t.Context(), bob.ID, "long enough"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckPassword(t.Context(), "bob", "long enough"); err != nil {
		t.Fatal(err)
	}
	// The invite is over: it could otherwise replace the password.
	if p, _, _ := s.Get(t.Context(), bob.ID); p.Invite != nil {
		t.Fatal("invite kept")
	}
	_, err = s.AcceptInvite(t.Context(), secret, "another one")
	wantCode(t, err, CodeInvalidInvite)
	// The owner may have a password too.
	if err := s.SetPassword(t.Context(), owner.ID, "owner's password"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckPassword(t.Context(), "olga", "owner's password"); err != nil {
		t.Fatal(err)
	}
}

// There is one owner: EnsureOwner creates it once, and it cannot be
// removed.
func TestOwner(t *testing.T) { eachPlace(t, testOwner) }

func testOwner(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	if _, ok, err := s.Owner(t.Context()); ok || err != nil {
		t.Fatalf("owner before EnsureOwner: %v %v", ok, err)
	}
	first, created, err := s.EnsureOwner(t.Context(), " Olga ")
	if err != nil || !created || first.Name != "olga" || !first.Owner || first.PasswordHash != "" || first.Invite != nil {
		t.Fatalf("EnsureOwner = %+v %v %v", first, created, err)
	}
	again, created, err := s.EnsureOwner(t.Context(), "someone else")
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("second EnsureOwner = %+v %v %v", again, created, err)
	}
	if o, ok, err := s.Owner(t.Context()); err != nil || !ok || o.ID != first.ID {
		t.Fatalf("Owner = %+v %v %v", o, ok, err)
	}
	if people, _ := s.List(t.Context()); len(people) != 1 {
		t.Fatalf("%d people", len(people))
	}

	for _, who := range []string{first.ID, "OLGA"} {
		_, err := s.Remove(t.Context(), who)
		e := wantCode(t, err, CodeInvalidOperation)
		if !strings.Contains(e.Message, "owner") || e.HTTPStatus() != http.StatusBadRequest {
			t.Fatalf("%q (%d)", e.Message, e.HTTPStatus())
		}
	}
	_, err = s.Remove(t.Context(), "nobody")
	if e := wantCode(t, err, CodeNotFound); e.HTTPStatus() != http.StatusNotFound {
		t.Fatalf("status %d", e.HTTPStatus())
	}

	bob, _, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.Remove(t.Context(), bob.ID); err != nil || p.Name != "bob" {
		t.Fatalf("Remove = %+v %v", p, err)
	}
	if _, ok, err := s.Get(t.Context(), bob.ID); ok || err != nil {
		t.Fatalf("removed person still there: %v %v", ok, err)
	}
	// The name is free again, with a new id.
	bob2, _, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil || bob2.ID == bob.ID {
		t.Fatalf("re-adding: %+v %v", bob2, err)
	}

	// An owner's name must be free and valid when it is created.
	s2 := openAt(t, pl.fresh(t), clk)
	if _, _, err := s2.Add(t.Context(), "bob", "", time.Hour); err != nil {
		t.Fatal(err)
	}
	_, _, err = s2.EnsureOwner(t.Context(), "BOB")
	wantCode(t, err, CodeAlreadyExists)
	_, _, err = s2.EnsureOwner(t.Context(), "")
	wantCode(t, err, CodeInvalidName)
}

// Names are trimmed and lower-cased, then checked; the error says what is
// wrong.
func TestNames(t *testing.T) { eachPlace(t, testNames) }

func testNames(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	p, _, err := s.Add(t.Context(), "  Alice.B_C-9 ", "", time.Hour)
	if err != nil || p.Name != "alice.b_c-9" {
		t.Fatalf("Add = %+v %v", p, err)
	}
	_, _, err = s.Add(t.Context(), "ALICE.b_c-9", "", time.Hour)
	if e := wantCode(t, err, CodeAlreadyExists); e.HTTPStatus() != http.StatusConflict || !strings.Contains(e.Message, "alice.b_c-9") {
		t.Fatalf("%q (%d)", e.Message, e.HTTPStatus())
	}
	if q, ok, err := s.ByName(t.Context(), "Alice.B_C-9"); err != nil || !ok || q.ID != p.ID {
		t.Fatalf("ByName = %+v %v %v", q, ok, err)
	}
	if _, ok, err := s.ByName(t.Context(), "alice"); ok || err != nil {
		t.Fatalf("ByName(alice) = %v %v", ok, err)
	}
	for _, name := range []string{"9lives", "a", strings.Repeat("x", 64)} {
		if _, _, err := s.Add(t.Context(), name, "", time.Hour); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
	}
	for _, c := range []struct{ name, says string }{
		{"", "required"},
		{"   ", "required"},
		{strings.Repeat("x", 65), "at most 64"},
		{".dot", "start with"},
		{"-dash", "start with"},
		{"_under", "start with"},
		{"has space", "only letters"},
		{"émile", "start with"},
		{"zoë", "only letters"},
		{"a/b", "only letters"},
		{"a@b", "only letters"},
	} {
		_, _, err := s.Add(t.Context(), c.name, "", time.Hour)
		e := wantCode(t, err, CodeInvalidName)
		if !strings.Contains(e.Message, c.says) || e.HTTPStatus() != http.StatusBadRequest {
			t.Fatalf("%q: %q (%d), want it to say %q", c.name, e.Message, e.HTTPStatus(), c.says)
		}
	}
	// A control character is refused, never trimmed away (names.Check),
	// and nothing is added.
	before, err := s.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bob\n", "\tbob", " bob\r\n", "bo\x00b", "bob\x1b[31m", "\u0085bob"} {
		_, _, err := s.Add(t.Context(), name, "", time.Hour)
		if e := wantCode(t, err, CodeInvalidName); !strings.Contains(e.Message, "control character") {
			t.Fatalf("%q: %q", name, e.Message)
		}
	}
	if after, err := s.List(t.Context()); err != nil || len(after) != len(before) {
		t.Fatalf("refused names added people: %d then %d (%v)", len(before), len(after), err)
	}
	for _, email := range []string{"no-at-sign", "Bob <bob@example.com>", "a@b\x1b[31m", strings.Repeat("x", 250) + "@example.com"} {
		_, _, err := s.Add(t.Context(), "bob", email, time.Hour)
		wantCode(t, err, CodeInvalidEmail)
	}
	if p, _, err := s.Add(t.Context(), "bob", " bob@example.com ", time.Hour); err != nil || p.Email != "bob@example.com" {
		t.Fatalf("email: %+v %v", p, err)
	}
	if people, _ := s.List(t.Context()); len(people) != 5 {
		t.Fatalf("%d people: invalid input was stored", len(people))
	}
}

// A file that does not parse, or that this package would not have written,
// is an error for every call and is never overwritten.
func TestCorruptFileIsKept(t *testing.T) {
	clk := newClock()
	for name, content := range map[string]string{
		"not json":   `{"people": [`,
		"bad name":   `{"people":[{"id":"per_0123456789ab","name":"Bob","createdAt":"2026-01-01T00:00:00Z"}]}`,
		"bad id":     `{"people":[{"id":"bob","name":"bob","createdAt":"2026-01-01T00:00:00Z"}]}`,
		"duplicate":  `{"people":[{"id":"per_0123456789ab","name":"bob","createdAt":"2026-01-01T00:00:00Z"},{"id":"per_0123456789ac","name":"bob","createdAt":"2026-01-01T00:00:00Z"}]}`,
		"two owners": `{"people":[{"id":"per_0123456789ab","name":"a","owner":true,"createdAt":"2026-01-01T00:00:00Z"},{"id":"per_0123456789ac","name":"b","owner":true,"createdAt":"2026-01-01T00:00:00Z"}]}`,
		"bad hash":   `{"people":[{"id":"per_0123456789ab","name":"bob","passwordHash":"plaintext","createdAt":"2026-01-01T00:00:00Z"}]}`,
		"bad invite": `{"people":[{"id":"per_0123456789ab","name":"bob","invite":{"sha256":"abc","expiresAt":"2030-01-01T00:00:00Z"},"createdAt":"2026-01-01T00:00:00Z"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := tempPath(t)
			if err := os.MkdirAll(strings.TrimSuffix(path, FileName), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			s := openTest(t, path, clk)
			errs := []error{}
			_, err := s.List(t.Context())
			errs = append(errs, err)
			_, _, err = s.ByName(t.Context(), "bob")
			errs = append(errs, err)
			_, _, err = s.Add(t.Context(), "carol", "", time.Hour)
			errs = append(errs, err)
			_, _, err = s.EnsureOwner(t.Context(), "olga")
			errs = append(errs, err)
			_, err = s.Remove(t.Context(), "bob")
			errs = append(errs, err)
			_, err = s.CheckPassword(t.Context(), "bob", "a password")
			errs = append(errs, err)
			for i, err := range errs {
				if err == nil || codeOf(err) != "" || !strings.Contains(err.Error(), path) {
					t.Fatalf("call %d: %v, want an uncoded error naming the file", i, err)
				}
			}
			if data, _ := os.ReadFile(path); string(data) != content {
				t.Fatalf("the file was overwritten:\n%s", data)
			}
		})
	}
}

// An empty or missing file is an empty store; reading writes nothing.
func TestMissingAndEmptyFile(t *testing.T) {
	path, clk := tempPath(t), newClock()
	s := openTest(t, path, clk)
	if people, err := s.List(t.Context()); err != nil || len(people) != 0 || people == nil {
		t.Fatalf("List = %#v %v", people, err)
	}
	if _, err := s.Remove(t.Context(), "bob"); codeOf(err) != CodeNotFound {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read created the file: %v", err)
	}
	if err := os.MkdirAll(strings.TrimSuffix(path, FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Add(t.Context(), "bob", "", time.Hour); err != nil {
		t.Fatal(err)
	}
}

// Another Store on the file, as in another process (`dsh user add` while
// the host runs), sees every change on its next lookup.
func TestOtherStoreSeesChanges(t *testing.T) { eachPlace(t, testOtherStoreSeesChanges) }

func testOtherStoreSeesChanges(t *testing.T, pl place) {
	clk := newClock()
	host, cli := openAt(t, pl, clk), openAt(t, pl, clk)
	if _, ok, err := host.ByName(t.Context(), "bob"); ok || err != nil { // cache the empty store
		t.Fatal(ok, err)
	}
	bob, secret, err := cli.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok, err := host.Get(t.Context(), bob.ID); err != nil || !ok || p.Name != "bob" {
		t.Fatalf("host does not see the new person: %+v %v %v", p, ok, err)
	}
	if _, err := host.AcceptInvite(t.Context(), secret, "bob's password"); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.CheckPassword(t.Context(), "bob", "bob's password"); err != nil {
		t.Fatal(err)
	}
	_, again, err := cli.Reinvite(t.Context(), "bob", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.AcceptInvite(t.Context(), again, "bob's new password"); err != nil {
		t.Fatalf("host does not see the new invite: %v", err)
	}
	if _, err := cli.Remove(t.Context(), "bob"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := host.Get(t.Context(), bob.ID); ok || err != nil {
		t.Fatalf("host still sees the removed person: %v %v", ok, err)
	}
	wantCode(t, func() error { _, err := host.CheckPassword(t.Context(), "bob", "bob's new password"); return err }(), CodeBadCredentials)
}

// Changes from many goroutines and two Stores all land.
func TestConcurrentChanges(t *testing.T) { eachPlace(t, testConcurrentChanges) }

func testConcurrentChanges(t *testing.T, pl place) {
	clk := newClock()
	a, b := openAt(t, pl, clk), openAt(t, pl, clk)
	var wg sync.WaitGroup
	for i := range 20 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			if _, _, err := s.Add(t.Context(), fmt.Sprint("p", i), "", time.Hour); err != nil {
				t.Error(err)
			}
			_, _, _ = s.ByName(t.Context(), fmt.Sprint("p", i-1))
		})
	}
	wg.Wait()
	if people, err := a.List(t.Context()); err != nil || len(people) != 20 {
		t.Fatalf("%d people, %v", len(people), err)
	}
}

// What callers get is a copy: changing it changes nothing stored.
func TestResultsAreCopies(t *testing.T) { eachPlace(t, testResultsAreCopies) }

func testResultsAreCopies(t *testing.T, pl place) {
	clk := newClock()
	s := openAt(t, pl, clk)
	p, _, err := s.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	q, _, _ := s.Get(t.Context(), p.ID)
	q.Invite.SHA256 = "changed"
	people, _ := s.List(t.Context())
	people[0].Invite.ExpiresAt = time.Time{}
	if r, _, _ := s.Get(t.Context(), p.ID); r.Invite.SHA256 != p.Invite.SHA256 || !r.Invite.ExpiresAt.Equal(p.Invite.ExpiresAt) {
		t.Fatalf("the cached view changed: %+v", r.Invite)
	}
}

// *Error is the web server's coded error, found through wrapping.
func TestErrorContract(t *testing.T) {
	for code, status := range map[string]int{
		CodeInvalidName: 400, CodeInvalidEmail: 400, CodeAlreadyExists: 409, CodeNotFound: 404,
		CodeInvalidOperation: 400, CodeInvalidInvite: 403, CodeWeakPassword: 400,
		CodeBadCredentials: 401, CodeRateLimited: 429,
	} {
		err := fmt.Errorf("wrapped: %w", &Error{Code: code, Message: "m", RetryAfter: 3})
		if codeOf(err) != code {
			t.Fatalf("%s not found through wrapping", code)
		}
		var e *Error
		if !errors.As(err, &e) || e.HTTPStatus() != status || e.ErrorMessage() != "m" {
			t.Fatalf("%s: %d", code, e.HTTPStatus())
		}
		if (e.ErrorDetails() != nil) != (code == CodeRateLimited) {
			t.Fatalf("%s: details %v", code, e.ErrorDetails())
		}
	}
	if got := (&Error{Code: CodeNotFound, Message: "no person"}).Error(); got != "accounts: not_found: no person" {
		t.Fatal(got)
	}
}

// Two nodes on one database share the throttle: failures on either count
// against the name on both, and a success on one clears it for both.
func TestThrottleAcrossNodes(t *testing.T) {
	pl, clk := place{dsn: pgtest.DSN(t)}, newClock()
	a, b := openAt(t, pl, clk), openAt(t, pl, clk)
	_, secret, err := a.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.AcceptInvite(t.Context(), secret, "bob's password"); err != nil {
		t.Fatal(err)
	}
	for i := range maxFailures {
		node := []*testStore{a, b}[i%2]
		_, err := node.CheckPassword(t.Context(), "bob", "wrong password")
		wantCode(t, err, CodeBadCredentials)
	}
	for _, node := range []*testStore{a, b} {
		_, err := node.CheckPassword(t.Context(), "bob", "bob's password")
		wantCode(t, err, CodeRateLimited)
	}
	clk.Add(failureWindow)
	if _, err := a.CheckPassword(t.Context(), "bob", "bob's password"); err != nil {
		t.Fatal(err)
	}
	for range maxFailures - 1 {
		_, err := b.CheckPassword(t.Context(), "bob", "wrong password")
		wantCode(t, err, CodeBadCredentials)
	}
	if _, err := a.CheckPassword(t.Context(), "bob", "bob's password"); err != nil {
		t.Fatalf("the success did not clear the count on the other node: %v", err)
	}
}

// A database that cannot be reached refuses sign-ins with its error,
// never admits, and never counts a failure against the name.
func TestUnreachableRefuses(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), "postgres://dsh@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := Open("", Options{State: pgstate.New(pool, pgstate.Options{}), HashParams: &testParams})
	if _, err := s.CheckPassword(t.Context(), "bob", "bob's password"); !errors.Is(err, pgdb.ErrUnreachable) || codeOf(err) != "" {
		t.Fatalf("CheckPassword = %v, want ErrUnreachable", err)
	}
	if _, ok, err := s.Get(t.Context(), "per_000000000000"); ok || !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("Get = %v %v, want ErrUnreachable", ok, err)
	}
	if _, _, err := s.Add(t.Context(), "carol", "", time.Hour); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("Add = %v, want ErrUnreachable", err)
	}
}
