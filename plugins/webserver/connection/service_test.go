package connection

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCrossOriginRejected(t *testing.T) {
	p := newProbe(t, Config{})
	session := p.login(t)
	res := p.do(t, http.MethodGet, "/api", map[string]string{"Origin": "http://evil.example"}, session)
	expect(t, res, http.StatusForbidden, CodeForbiddenOrigin)
}

func TestSecFetchSiteCrossSiteRejected(t *testing.T) {
	p := newProbe(t, Config{})
	session := p.login(t)
	res := p.do(t, http.MethodGet, "/api", map[string]string{"Sec-Fetch-Site": "cross-site"}, session)
	expect(t, res, http.StatusForbidden, CodeForbiddenOrigin)
}

func TestMissingSessionRejected(t *testing.T) {
	p := newProbe(t, Config{})
	expect(t, p.do(t, http.MethodGet, "/api", p.sameOrigin()), http.StatusUnauthorized, CodeUnauthenticated)
	bogus := &http.Cookie{Name: DefaultCookieName, Value: newSecret()}
	expect(t, p.do(t, http.MethodGet, "/api", p.sameOrigin(), bogus), http.StatusUnauthorized, CodeUnauthenticated)
}

func TestForbiddenHostRejected(t *testing.T) {
	p := newProbe(t, Config{})
	session := p.login(t)
	// What a DNS-rebinding attack looks like from the server's side: the
	// attacker's name in Host, and (for the attacker's page) same-origin.
	h := map[string]string{"Host": "rebind.evil.example", "Sec-Fetch-Site": "same-origin"}
	expect(t, p.do(t, http.MethodGet, "/api", h, session), http.StatusForbidden, CodeForbiddenHost)
	// Host is checked before bearer tokens too.
	h = map[string]string{"Host": "rebind.evil.example", "Authorization": "Bearer x"}
	expect(t, p.do(t, http.MethodGet, "/api", h), http.StatusForbidden, CodeForbiddenHost)
}

func TestPostWithoutOriginEvidenceRejected(t *testing.T) {
	p := newProbe(t, Config{})
	session := p.login(t)
	expect(t, p.do(t, http.MethodPost, "/api", nil, session), http.StatusForbidden, CodeCSRFRejected)
	expect(t, p.do(t, http.MethodPost, "/api", map[string]string{"Sec-Fetch-Site": "none"}, session), http.StatusForbidden, CodeCSRFRejected)
	if res := p.do(t, http.MethodPost, "/api", p.sameOrigin(), session); res.status != http.StatusOK {
		t.Fatalf("same-origin POST with session: %d %s", res.status, res.body)
	}
}

func TestBearerTokens(t *testing.T) {
	store := OpenTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	fromFile, _, err := store.Create(t.Context(), "cli")
	if err != nil {
		t.Fatal(err)
	}
	const fromYAML = "dsh_yaml-configured-token"
	p := newProbe(t, Config{
		TokenFile: store.Path(),
		Tokens:    []TokenRecord{{ID: "y", Name: "yaml", SHA256: HashToken(fromYAML)}},
	})

	bad := map[string]string{"Authorization": "Bearer dsh_wrong"}
	expect(t, p.do(t, http.MethodGet, "/api", bad), http.StatusUnauthorized, CodeInvalidToken)
	expect(t, p.do(t, http.MethodGet, "/api", map[string]string{"Authorization": "Bearer "}), http.StatusUnauthorized, CodeInvalidToken)

	for _, tok := range []string{fromFile, fromYAML} {
		// Programs send no Origin; bearer requests are CSRF-safe, so even
		// a POST is admitted.
		res := p.do(t, http.MethodPost, "/api", map[string]string{"Authorization": "bearer " + tok})
		if res.status != http.StatusOK || res.body != "admitted" {
			t.Fatalf("good token %q: %d %s", tok, res.status, res.body)
		}
	}
}

func TestRunningServiceSeesRevokedToken(t *testing.T) {
	store := OpenTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	tok, rec, err := store.Create(t.Context(), "laptop")
	if err != nil {
		t.Fatal(err)
	}
	p := newProbe(t, Config{TokenFile: store.Path()})
	auth := map[string]string{"Authorization": "Bearer " + tok}
	if res := p.do(t, http.MethodGet, "/api", auth); res.status != http.StatusOK {
		t.Fatalf("before revoke: %d %s", res.status, res.body)
	}
	if _, err := store.Revoke(t.Context(), rec.ID); err != nil {
		t.Fatal(err)
	}
	expect(t, p.do(t, http.MethodGet, "/api", auth), http.StatusUnauthorized, CodeInvalidToken)

	// And a token created while running is picked up too.
	tok2, _, err := store.Create(t.Context(), "phone")
	if err != nil {
		t.Fatal(err)
	}
	if res := p.do(t, http.MethodGet, "/api", map[string]string{"Authorization": "Bearer " + tok2}); res.status != http.StatusOK {
		t.Fatalf("new token: %d %s", res.status, res.body)
	}
}

func TestSessionExpires(t *testing.T) {
	p := newProbe(t, Config{SessionTTL: time.Hour})
	clk := newFakeClock()
	p.svc.now = clk.Now
	session := p.login(t)
	if res := p.do(t, http.MethodGet, "/api", nil, session); res.status != http.StatusOK {
		t.Fatalf("fresh session: %d", res.status)
	}
	if p.svc.Sessions(t.Context()) != 1 {
		t.Fatalf("Sessions() = %d", p.svc.Sessions(t.Context()))
	}
	clk.Advance(time.Hour)
	expect(t, p.do(t, http.MethodGet, "/api", nil, session), http.StatusUnauthorized, CodeUnauthenticated)
	if p.svc.Sessions(t.Context()) != 0 {
		t.Fatalf("expired session still counted")
	}
}

// TestClosedServiceFailsClosed: after Close everything is refused, but
// the persisted sessions are not wiped: stopping a host is not a logout.
func TestClosedServiceFailsClosed(t *testing.T) {
	file := filepath.Join(t.TempDir(), SessionFileName)
	p := newProbe(t, Config{SessionFile: file})
	session := p.login(t)
	p.svc.Close()
	expect(t, p.do(t, http.MethodGet, "/api", nil, session), http.StatusServiceUnavailable, CodeAdmissionUnavailable)
	if res := p.do(t, http.MethodGet, strings.TrimPrefix(p.svc.NewLoginLink(t.Context(), p.srv.URL), p.srv.URL), nil); res.status != http.StatusServiceUnavailable {
		t.Fatalf("login after Close: %d", res.status)
	}
	if rej := p.svc.RequireBearer(httptest.NewRequest(http.MethodGet, "/", nil)); rej == nil || rej.Code != CodeAdmissionUnavailable {
		t.Fatalf("RequireBearer after Close: %v", rej)
	}
	if n := p.svc.Sessions(t.Context()); n != 1 {
		t.Fatalf("Close dropped the persisted session: %d left", n)
	}
	next := newProbe(t, Config{SessionFile: file})
	if res := next.do(t, http.MethodGet, "/api", nil, session); res.status != http.StatusOK {
		t.Fatalf("session in the next service: %d %s", res.status, res.body)
	}
}

func TestNilServiceFailsClosed(t *testing.T) {
	var a Admitter = (*Service)(nil)
	r, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/", nil)
	if rej := a.RequestRejection(r); rej == nil || rej.Code != CodeAdmissionUnavailable {
		t.Fatalf("got %v", rej)
	}
}

func TestPublicOriginsAndAllowedHosts(t *testing.T) {
	p := newProbe(t, Config{
		PublicOrigins: []string{"https://dsh.example"},
		AllowedHosts:  []string{"127.0.0.1"},
	})
	session := p.login(t)
	// Reached through a proxy at https://dsh.example.
	h := map[string]string{"Host": "dsh.example", "Origin": "https://dsh.example"}
	if res := p.do(t, http.MethodPost, "/api", h, session); res.status != http.StatusOK {
		t.Fatalf("public origin: %d %s", res.status, res.body)
	}
	// localhost is no longer allowed once AllowedHosts is set explicitly.
	expect(t, p.do(t, http.MethodGet, "/api", map[string]string{"Host": "localhost"}, session), http.StatusForbidden, CodeForbiddenHost)
}

func TestNewRejectsBadPublicOrigin(t *testing.T) {
	if _, err := New(Config{PublicOrigins: []string{"dsh.example"}}, nil); err == nil {
		t.Fatal("want error")
	}
}

func TestSetOriginsSkipsInvalid(t *testing.T) {
	svc, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc.SetOrigins("not an origin", "http://127.0.0.1:9")
	if !svc.origins.Load().has("http://127.0.0.1:9") {
		t.Fatal("valid origin dropped")
	}
}
