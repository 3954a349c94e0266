package connection

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// peopleService is a service with accounts (owner olga, member bob), a
// token file and a sessions file.
func peopleService(t *testing.T) (*Service, *accounts.Store, accounts.Person, accounts.Person) {
	t.Helper()
	dir := t.TempDir()
	cheap := argon2id.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}
	people := accounts.Open(filepath.Join(dir, "accounts.json"), accounts.Options{HashParams: &cheap})
	owner, _, err := people.EnsureOwner(t.Context(), "olga")
	if err != nil {
		t.Fatal(err)
	}
	bob, _, err := people.Add(t.Context(), "bob", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(Config{Accounts: people, TokenFile: filepath.Join(dir, "tokens.json"), SessionFile: filepath.Join(dir, "sessions.json")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc, people, owner, bob
}

func bearerReq(token string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

// Who each credential acts for: a host token is an admin; a connect
// token is its person's bot, bound by its grant; a session is its
// person (a login link's, the owner).
func TestPrincipals(t *testing.T) {
	svc, _, owner, bob := peopleService(t)
	host, _, err := svc.Tokens().Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	bot, rec, err := svc.Tokens().Mint(t.Context(), TokenSpec{Name: "claude", Person: bob.ID, Grant: identity.NewGrant(map[string]any{"role": "viewer", "boards": []string{"plan"}})})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := svc.Principal(bearerReq(host)); !ok || !p.Admin || p.Grant != nil {
		t.Fatalf("host token: %+v %v", p, ok)
	}
	p, ok := svc.Principal(bearerReq(bot))
	if !ok || p.Admin || p.Grant == nil || p.Person != bob.ID || p.PersonName != "bob" || p.ID != rec.ID || p.HostOwner {
		t.Fatalf("connect token: %+v %v", p, ok)
	}
	if svc.LastUsed(rec.ID).IsZero() {
		t.Fatal("last use not recorded")
	}
	secret, _, err := svc.sessions.create(t.Context(), "ua", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
	r.AddCookie(&http.Cookie{Name: DefaultCookieName, Value: secret})
	if p, ok := svc.Principal(r); !ok || p.Person != owner.ID || !p.Admin || !p.HostOwner || p.Name != "olga" {
		t.Fatalf("a login link's session: %+v %v", p, ok)
	}
	// An expired connect token no longer works.
	past := time.Now().Add(-time.Minute)
	old, _, err := svc.Tokens().Mint(t.Context(), TokenSpec{Name: "old", Person: bob.ID, Grant: identity.NewGrant(map[string]any{"role": "editor"}), ExpiresAt: &past})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := svc.Principal(bearerReq(old)); ok {
		t.Fatal("an expired token was accepted")
	}
}

// Removing a person ends their sessions (in the file too) and every
// request of theirs and of their bots, at once; their bots stop working.
func TestRemovePersonCutsEverything(t *testing.T) {
	svc, _, _, bob := peopleService(t)
	bot, _, err := svc.Tokens().Mint(t.Context(), TokenSpec{Name: "claude", Person: bob.ID, Grant: identity.NewGrant(map[string]any{"role": "editor", "boards": []string{"plan"}})})
	if err != nil {
		t.Fatal(err)
	}
	secret, _, err := svc.sessions.create(t.Context(), "ua", bob.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
	r.AddCookie(&http.Cookie{Name: DefaultCookieName, Value: secret})
	sessionReq, doneS, rej := svc.Admit(r)
	if rej != nil {
		t.Fatal(rej)
	}
	defer doneS()
	botReq, doneB, rej := svc.Admit(bearerReq(bot))
	if rej != nil {
		t.Fatal(rej)
	}
	defer doneB()
	var told []string
	stop := svc.OnRevoke(func(p Principal) { told = append(told, p.String()) })
	defer stop()
	if _, err := svc.RemovePerson(t.Context(), "bob"); err != nil {
		t.Fatal(err)
	}
	for name, ctx := range map[string]context.Context{"session": sessionReq.Context(), "bot": botReq.Context()} {
		select {
		case <-ctx.Done():
		default:
			t.Errorf("the %s's open request was not cut", name)
		}
	}
	if len(told) != 2 {
		t.Errorf("revocation subscribers told of %v", told)
	}
	if _, ok := svc.Principal(bearerReq(bot)); ok {
		t.Error("the removed person's bot still works")
	}
	list, _ := svc.ListSessions(t.Context())
	for _, s := range list {
		if s.Person == bob.ID {
			t.Error("the removed person's session is still listed")
		}
	}
}

// Revoking by a name several tokens share is refused: it would revoke
// more than one meant.
func TestRevokeAmbiguousName(t *testing.T) {
	svc, _, owner, bob := peopleService(t)
	for _, person := range []string{owner.ID, bob.ID} {
		if _, _, err := svc.Tokens().Mint(t.Context(), TokenSpec{Name: "claude", Person: person, Grant: identity.NewGrant(map[string]any{"role": "viewer"})}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.RevokeToken(t.Context(), "claude"); !errors.Is(err, ErrTokenAmbiguous) {
		t.Fatalf("revoke by a shared name: %v", err)
	}
	list, _ := svc.Tokens().List(t.Context())
	if len(list) != 2 {
		t.Fatalf("%d tokens left", len(list))
	}
	if _, err := svc.RevokeToken(t.Context(), list[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.RevokeToken(t.Context(), "claude"); err != nil {
		t.Fatalf("the name is unique now: %v", err)
	}
}

// A trusted proxy's header names the person, only on connections from
// the proxy's addresses; a stranger's header is ignored, and a name
// without an account is refused.
func TestTrustedProxyHeader(t *testing.T) {
	dir := t.TempDir()
	people := accounts.Open(filepath.Join(dir, "accounts.json"), accounts.Options{})
	if _, _, err := people.EnsureOwner(t.Context(), "olga"); err != nil {
		t.Fatal(err)
	}
	bob, _, err := people.Add(t.Context(), "bob", "bob@example.com", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(Config{Accounts: people, TrustedProxies: []string{"10.0.0.0/8", "::1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	req := func(remote string, hdr ...string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
		r.RemoteAddr = remote
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		return r
	}
	for name, r := range map[string]*http.Request{
		"by name":  req("10.1.2.3:5555", "X-Forwarded-User", "bob"),
		"by email": req("[::1]:5555", "X-Forwarded-Email", "BOB@example.com"),
	} {
		got, _, rej := svc.Admit(r)
		if rej != nil {
			t.Fatalf("%s: %v", name, rej)
		}
		if p := identity.Of(got.Context()); p.Person != bob.ID || p.Admin || p.Kind != "proxy" {
			t.Fatalf("%s: %+v", name, p)
		}
	}
	if _, _, rej := svc.Admit(req("192.168.1.9:5555", "X-Forwarded-User", "bob")); rej == nil || rej.Code != CodeUnauthenticated {
		t.Fatalf("a header from an untrusted address counted: %v", rej)
	}
	if _, _, rej := svc.Admit(req("10.1.2.3:5555", "X-Forwarded-User", "mallory")); rej == nil || rej.Code != CodeUnknownPerson {
		t.Fatalf("an unknown person: %v", rej)
	}
	// The proxy's browser requests must still be same-origin.
	r := req("10.1.2.3:5555", "X-Forwarded-User", "bob")
	r.Method = http.MethodPost
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	if _, _, rej := svc.Admit(r); rej == nil {
		t.Fatal("a cross-site request through the proxy was admitted")
	}
	if _, err := New(Config{TrustedProxies: []string{"not an address"}}, nil); err == nil {
		t.Fatal("a bad proxy address was accepted")
	}
}
