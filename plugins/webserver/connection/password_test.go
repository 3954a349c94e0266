package connection

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alexedwards/argon2id"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/page"
)

// cheapHashes keep the tests fast; the rules do not depend on the cost.
var cheapHashes = argon2id.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// peopleProbe is an admissionProbe whose service keeps accounts (an owner
// and whoever the test adds) and serves all the sign-in pages: login,
// invite and logout, as MountLogin does.
type peopleProbe struct {
	*admissionProbe
	accounts *accounts.Store
	owner    accounts.Person
}

func newPeopleProbe(t *testing.T) *peopleProbe {
	t.Helper()
	st := accounts.Open(filepath.Join(t.TempDir(), accounts.FileName), accounts.Options{HashParams: &cheapHashes})
	return newPeopleProbeOn(t, st, nil)
}

// newPeopleProbeOn is a peopleProbe on the accounts st, with the tokens,
// sessions and login links in state (nil: sessions and links in memory,
// no tokens).
func newPeopleProbeOn(t *testing.T, st *accounts.Store, state statefile.Backend) *peopleProbe {
	t.Helper()
	owner, _, err := st.EnsureOwner(t.Context(), "olga")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(Config{Accounts: st, State: state, LoginCommand: "dsh login --config /srv/dsh.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(svc.LoginPath(), svc.LoginHandler())
	mux.Handle(svc.InvitePath(), svc.InviteHandler())
	mux.Handle(svc.LogoutPath(), svc.LogoutHandler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p, rej := svc.decide(r)
		if rej != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rej.Status)
			_ = json.NewEncoder(w).Encode(map[string]string{"code": rej.Code, "message": rej.Message})
			return
		}
		// Who it was admitted as, for the tests to check.
		_, _ = io.WriteString(w, "admitted as "+p.PersonName)
	})
	srv := httptest.NewServer(mux)
	svc.SetOrigins(srv.URL)
	transport := &http.Transport{}
	client := &http.Client{Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
		svc.Close()
	})
	return &peopleProbe{admissionProbe: &admissionProbe{svc: svc, srv: srv, client: client}, accounts: st, owner: owner}
}

// member adds a person named name whose password is password.
func (p *peopleProbe) member(t *testing.T, name, password string) accounts.Person {
	t.Helper()
	_, secret, err := p.accounts.Add(t.Context(), name, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	person, err := p.accounts.AcceptInvite(t.Context(), secret, password)
	if err != nil {
		t.Fatal(err)
	}
	return person
}

// post sends a form to path with header (nil: none).
func (p *peopleProbe) post(t *testing.T, path string, form url.Values, header map[string]string, cookies ...*http.Cookie) probeResult {
	t.Helper()
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	maps.Copy(h, header)
	return p.request(t, http.MethodPost, path, strings.NewReader(form.Encode()), h, cookies...)
}

// fromPage are the headers a browser sends with a form posted from one of
// the server's pages.
func (p *peopleProbe) fromPage() map[string]string {
	return map[string]string{"Origin": p.srv.URL, "Sec-Fetch-Site": "same-origin", "User-Agent": "dsh-test-browser"}
}

func sessionCookie(t *testing.T, res probeResult) *http.Cookie {
	t.Helper()
	for _, c := range res.resp.Cookies() {
		if c.Name == DefaultCookieName && c.Value != "" {
			return c
		}
	}
	t.Fatalf("no session cookie set: %d %v\n%s", res.status, res.resp.Header, res.body)
	return nil
}

// admittedAs is who the probe admits a same-origin GET with c as ("" when
// it is refused).
func (p *peopleProbe) admittedAs(t *testing.T, c *http.Cookie) string {
	t.Helper()
	res := p.do(t, http.MethodGet, "/api", map[string]string{"Sec-Fetch-Site": "same-origin"}, c)
	if res.status != http.StatusOK {
		return ""
	}
	return strings.TrimPrefix(res.body, "admitted as ")
}

func TestPasswordLogin(t *testing.T) {
	p := newPeopleProbe(t)
	bob := p.member(t, "bob", "correct horse battery")

	form := p.do(t, http.MethodGet, "/login?next="+url.QueryEscape("/dsh-excalidraw/?scene=a"), nil)
	if form.status != http.StatusOK {
		t.Fatalf("form: %d %s", form.status, form.body)
	}
	for _, want := range []string{`<form method="post" action="/login">`, `name="password" type="password"`,
		`<input type="hidden" name="next" value="/dsh-excalidraw/?scene=a">`, "dsh login --config /srv/dsh.yaml"} {
		if !strings.Contains(form.body, want) {
			t.Fatalf("form lacks %q:\n%s", want, form.body)
		}
	}
	if csp := form.resp.Header.Get("Content-Security-Policy"); csp != page.FormCSP {
		t.Fatalf("CSP %q", csp)
	}
	if strings.Contains(form.body, "<script") || strings.Contains(form.body, "http://") {
		t.Fatalf("form loads or links something external:\n%s", form.body)
	}
	// A next that leaves the server is not carried along.
	if evil := p.do(t, http.MethodGet, "/login?next=//evil.example/", nil); !strings.Contains(evil.body, `name="next" value="/"`) {
		t.Fatalf("unsafe next kept:\n%s", evil.body)
	}

	res := p.post(t, "/login", url.Values{"name": {"Bob"}, "password": {"correct horse battery"}, "next": {"/dsh-excalidraw/?scene=a"}}, p.fromPage())
	if res.status != http.StatusSeeOther || res.resp.Header.Get("Location") != "/dsh-excalidraw/?scene=a" {
		t.Fatalf("login: %d %q %s", res.status, res.resp.Header.Get("Location"), res.body)
	}
	c := sessionCookie(t, res)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure || c.MaxAge != int(DefaultSessionTTL.Seconds()) {
		t.Fatalf("cookie attributes: %+v", c)
	}
	if who := p.admittedAs(t, c); who != "bob" {
		t.Fatalf("session admitted as %q, want bob", who)
	}
	list, _ := p.svc.ListSessions(t.Context())
	if len(list) != 1 || list[0].Person != bob.ID || list[0].Label != "dsh-test-browser" {
		t.Fatalf("sessions %+v", list)
	}

	// An unsafe next in the form lands on the home page.
	res = p.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}, "next": {"https://evil.example/"}}, p.fromPage())
	if res.status != http.StatusSeeOther || res.resp.Header.Get("Location") != "/" {
		t.Fatalf("unsafe next: %d %q", res.status, res.resp.Header.Get("Location"))
	}

	// The login link keeps working as before: the owner.
	if who := p.admittedAs(t, p.login(t)); who != "olga" {
		t.Fatalf("login link admitted as %q", who)
	}
}

// TestPasswordLoginFailuresReadAlike: a wrong password, an unknown name,
// an account with no password yet and the owner (who has none) get the
// same page and status.
func TestPasswordLoginFailuresReadAlike(t *testing.T) {
	p := newPeopleProbe(t)
	p.member(t, "bob", "correct horse battery")
	if _, _, err := p.accounts.Add(t.Context(), "carol", "", 0); err != nil { // invited, no password
		t.Fatal(err)
	}
	var first probeResult
	for i, tc := range []struct{ name, password string }{
		{"bob", "wrong horse battery"},
		{"zed", "correct horse battery"},
		{"carol", "correct horse battery"},
		{"olga", "correct horse battery"},
		{" ", ""},
		{"not a name!", "x"},
	} {
		res := p.post(t, "/login", url.Values{"name": {tc.name}, "password": {tc.password}, "next": {"/x"}}, p.fromPage())
		if res.status != http.StatusUnauthorized || !strings.Contains(res.body, wrongPassword) || len(res.resp.Cookies()) != 0 {
			t.Fatalf("%+v: %d %v\n%s", tc, res.status, res.resp.Cookies(), res.body)
		}
		if strings.Contains(res.body, tc.password) && tc.password != "" && tc.password != "x" {
			t.Fatalf("%+v: the password is shown back:\n%s", tc, res.body)
		}
		// The same page but for the name typed, which is shown back.
		body := strings.Replace(res.body, `value="`+attrEscaped(tc.name)+`"`, `value="NAME"`, 1)
		if i == 0 {
			first = res
			first.body = body
			continue
		}
		if body != first.body {
			t.Fatalf("%+v: page differs from a wrong password's:\n%s\n---\n%s", tc, body, first.body)
		}
	}
	if p.svc.Sessions(t.Context()) != 0 {
		t.Fatal("a failed sign-in started a session")
	}
}

// attrEscaped is s as html/template writes it in an attribute.
func attrEscaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestPasswordLoginRefusesOtherSites: a post that does not come from the
// server's own page is refused with 403 before any password is looked at,
// so it does not count against the throttle either.
func TestPasswordLoginRefusesOtherSites(t *testing.T) {
	p := newPeopleProbe(t)
	p.member(t, "bob", "correct horse battery")
	good := url.Values{"name": {"bob"}, "password": {"correct horse battery"}}
	wrong := url.Values{"name": {"bob"}, "password": {"wrong horse battery"}}
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "null", "Sec-Fetch-Site": "cross-site"}, // a sandboxed frame, another site's no-referrer page
		{"Origin": "null"},
		{"Sec-Fetch-Site": "none"}, // typed: never a form we served
		{},                         // proves nothing
	} {
		for range 3 { // more than the throttle would allow if counted
			for _, form := range []url.Values{wrong, good} {
				res := p.post(t, "/login", form, h)
				if res.status != http.StatusForbidden || len(res.resp.Cookies()) != 0 || !strings.Contains(res.body, "Refused") {
					t.Fatalf("%v: %d %s", h, res.status, res.body)
				}
			}
		}
	}
	if res := p.post(t, "/login", good, map[string]string{"Origin": p.srv.URL, "Host": "evil.example"}); res.status != http.StatusForbidden || !strings.Contains(res.body, "Unknown host") {
		t.Fatalf("foreign Host: %d %s", res.status, res.body)
	}
	if p.svc.Sessions(t.Context()) != 0 {
		t.Fatal("a refused post started a session")
	}
	// None of that counted: bob still signs in, from the page (Origin
	// alone, or Sec-Fetch-Site alone, proves it).
	for _, h := range []map[string]string{{"Origin": p.srv.URL}, {"Sec-Fetch-Site": "same-origin"}} {
		if res := p.post(t, "/login", good, h); res.status != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", h, res.status, res.body)
		}
	}
}

func TestPasswordLoginThrottled(t *testing.T) {
	p := newPeopleProbe(t)
	p.member(t, "bob", "correct horse battery")
	wrong := url.Values{"name": {"bob"}, "password": {"wrong horse battery"}}
	for i := range 5 {
		if res := p.post(t, "/login", wrong, p.fromPage()); res.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, res.status)
		}
	}
	for _, password := range []string{"wrong horse battery", "correct horse battery"} {
		res := p.post(t, "/login", url.Values{"name": {"bob"}, "password": {password}}, p.fromPage())
		if res.status != http.StatusTooManyRequests || len(res.resp.Cookies()) != 0 {
			t.Fatalf("throttled %q: %d %s", password, res.status, res.body)
		}
		after, err := strconv.Atoi(res.resp.Header.Get("Retry-After"))
		if err != nil || after < 1 || !strings.Contains(res.body, "Too many attempts; try again in "+strconv.Itoa(after)+" seconds.") {
			t.Fatalf("Retry-After %q:\n%s", res.resp.Header.Get("Retry-After"), res.body)
		}
		if !strings.Contains(res.body, `<form method="post" action="/login">`) {
			t.Fatalf("no form to try again with:\n%s", res.body)
		}
	}
	// Other names are not held back.
	p.member(t, "dave", "correct horse battery")
	if res := p.post(t, "/login", url.Values{"name": {"dave"}, "password": {"correct horse battery"}}, p.fromPage()); res.status != http.StatusSeeOther {
		t.Fatalf("dave: %d", res.status)
	}
}

func TestPasswordLoginBadBodies(t *testing.T) {
	p := newPeopleProbe(t)
	p.member(t, "bob", "correct horse battery")
	send := func(contentType, body string) probeResult {
		t.Helper()
		return p.request(t, http.MethodPost, "/login", strings.NewReader(body), map[string]string{"Content-Type": contentType, "Origin": p.srv.URL})
	}
	ok := url.Values{"name": {"bob"}, "password": {"correct horse battery"}}.Encode()
	if res := send("application/json", ok); res.status != http.StatusUnsupportedMediaType {
		t.Fatalf("json: %d", res.status)
	}
	if res := send("application/x-www-form-urlencoded", ok+"&pad="+strings.Repeat("x", maxFormBytes)); res.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("big: %d", res.status)
	}
	if res := send("application/x-www-form-urlencoded; charset=utf-8", ok); res.status != http.StatusSeeOther {
		t.Fatalf("with charset: %d %s", res.status, res.body)
	}
	if res := p.do(t, http.MethodPut, "/login", nil); res.status != http.StatusMethodNotAllowed || res.resp.Header.Get("Allow") != "GET, POST" {
		t.Fatalf("PUT: %d %q", res.status, res.resp.Header.Get("Allow"))
	}
}
