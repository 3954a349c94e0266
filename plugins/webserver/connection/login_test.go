package connection

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestLoginLinkWorksOnce(t *testing.T) {
	p := newProbe(t, Config{})
	link := p.svc.NewLoginLink(t.Context(), p.srv.URL+"/")
	if !strings.HasPrefix(link, p.srv.URL+"/login?token=") {
		t.Fatalf("link %q", link)
	}
	path := strings.TrimPrefix(link, p.srv.URL)

	first := p.do(t, http.MethodGet, path+"&next="+url.QueryEscape("/dsh-excalidraw/?scene=a"), nil)
	if first.status != http.StatusSeeOther {
		t.Fatalf("first use: %d %s", first.status, first.body)
	}
	if loc := first.resp.Header.Get("Location"); loc != "/dsh-excalidraw/?scene=a" {
		t.Fatalf("Location %q", loc)
	}
	if first.resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatal("login response cacheable")
	}
	cookies := first.resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	c := cookies[0]
	if c.Name != DefaultCookieName || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure {
		t.Fatalf("cookie attributes: %+v", c)
	}
	if c.MaxAge != int(DefaultSessionTTL.Seconds()) {
		t.Fatalf("MaxAge %d", c.MaxAge)
	}

	second := p.do(t, http.MethodGet, path, nil)
	if second.status != http.StatusForbidden || !strings.Contains(second.body, "already used") {
		t.Fatalf("second use: %d %q", second.status, second.body)
	}

	// The cookie admits a same-origin request.
	res := p.do(t, http.MethodGet, "/api", p.sameOrigin(), &http.Cookie{Name: c.Name, Value: c.Value})
	if res.status != http.StatusOK || res.body != "admitted" {
		t.Fatalf("cookie not admitted: %d %s", res.status, res.body)
	}
	if p.svc.Sessions(t.Context()) != 1 {
		t.Fatalf("Sessions() = %d", p.svc.Sessions(t.Context()))
	}
}

func TestLoginRejectsBadTokens(t *testing.T) {
	p := newProbe(t, Config{})
	for _, path := range []string{"/login", "/login?token=", "/login?token=forged"} {
		if res := p.do(t, http.MethodGet, path, nil); res.status != http.StatusForbidden {
			t.Errorf("%s: %d", path, res.status)
		}
	}
	link := p.svc.NewLoginLink(t.Context(), p.srv.URL)
	if res := p.do(t, http.MethodPost, strings.TrimPrefix(link, p.srv.URL), nil); res.status != http.StatusMethodNotAllowed {
		t.Errorf("POST login: %d", res.status)
	}
	if res := p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), map[string]string{"Host": "evil.example"}); res.status != http.StatusForbidden {
		t.Errorf("foreign host login: %d", res.status)
	}
	if p.svc.Sessions(t.Context()) != 0 {
		t.Fatal("session created by a rejected login")
	}
}

func TestLoginLinkExpires(t *testing.T) {
	p := newProbe(t, Config{LoginLinkTTL: time.Minute})
	clk := newFakeClock()
	p.svc.now = clk.Now
	link := p.svc.NewLoginLink(t.Context(), p.srv.URL)
	clk.Advance(time.Minute)
	if res := p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), nil); res.status != http.StatusForbidden {
		t.Fatalf("expired link: %d", res.status)
	}
}

func TestLoginCookieSecureOverTLS(t *testing.T) {
	svc, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewTLSServer(svc.LoginHandler())
	defer srv.Close()
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	defer client.CloseIdleConnections()

	resp, err := client.Get(svc.NewLoginLink(t.Context(), srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 || !resp.Cookies()[0].Secure {
		t.Fatalf("status %d cookies %+v", resp.StatusCode, resp.Cookies())
	}
}

func TestSafeNext(t *testing.T) {
	cases := map[string]string{
		"":                      "/",
		"/":                     "/",
		"/a/b?c=d#e":            "/a/b?c=d#e",
		"//evil.example":        "/",
		`/\evil.example`:        "/",
		"/\t/evil.example":      "/",
		"https://evil.example/": "/",
		"javascript:alert(1)":   "/",
		"relative":              "/",
	}
	for in, want := range cases {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUsedLoginLinkSaysHowToGetANewOne: the page a used, expired or forged
// link lands on tells the person the one command that helps.
func TestUsedLoginLinkSaysHowToGetANewOne(t *testing.T) {
	p := newProbe(t, Config{LoginCommand: "dsh login --config /srv/dsh.yaml"})
	link := strings.TrimPrefix(p.svc.NewLoginLink(t.Context(), p.srv.URL), p.srv.URL)
	if res := p.do(t, http.MethodGet, link, nil); res.status != http.StatusSeeOther {
		t.Fatalf("first use: %d", res.status)
	}
	for _, path := range []string{link, "/login?token=forged", "/login"} {
		res := p.do(t, http.MethodGet, path, nil)
		if res.status != http.StatusForbidden {
			t.Fatalf("%s: %d", path, res.status)
		}
		if ct := res.resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s: Content-Type %q", path, ct)
		}
		for _, want := range []string{"<title>", "dsh login --config /srv/dsh.yaml", "<html lang=\"en\">"} {
			if !strings.Contains(res.body, want) {
				t.Fatalf("%s: page lacks %q:\n%s", path, want, res.body)
			}
		}
		if strings.Contains(res.body, "http://") || strings.Contains(res.body, "https://") || strings.Contains(res.body, "<script") {
			t.Fatalf("%s: page loads or links something external:\n%s", path, res.body)
		}
	}
}

// TestLogout: a post from the server's own page ends the session its
// cookie names (the cookie no longer admits, even if the browser kept
// it), clears the cookie and goes to the login page; other sessions stay.
func TestLogout(t *testing.T) {
	p := newPeopleProbe(t)
	p.member(t, "bob", "correct horse battery")
	res := p.post(t, "/login", url.Values{"name": {"bob"}, "password": {"correct horse battery"}}, p.fromPage())
	bob := sessionCookie(t, res)
	owner := p.login(t)

	form := p.do(t, http.MethodGet, "/logout", nil, bob)
	if form.status != http.StatusOK || !strings.Contains(form.body, `<form method="post" action="/logout">`) {
		t.Fatalf("logout page: %d %s", form.status, form.body)
	}
	// Another site cannot log a browser out, nor can a post that proves
	// nothing.
	for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {}} {
		if res := p.post(t, "/logout", nil, h, bob); res.status != http.StatusForbidden || len(res.resp.Cookies()) != 0 {
			t.Fatalf("%v: %d %s", h, res.status, res.body)
		}
	}
	if p.admittedAs(t, bob) != "bob" {
		t.Fatal("a refused logout ended the session")
	}

	res = p.post(t, "/logout", nil, p.fromPage(), bob)
	if res.status != http.StatusSeeOther || res.resp.Header.Get("Location") != "/login" {
		t.Fatalf("logout: %d %q %s", res.status, res.resp.Header.Get("Location"), res.body)
	}
	cleared := res.resp.Cookies()
	if len(cleared) != 1 || cleared[0].Name != DefaultCookieName || cleared[0].Value != "" || cleared[0].MaxAge >= 0 || !cleared[0].HttpOnly {
		t.Fatalf("cookie not cleared: %+v", cleared)
	}
	if who := p.admittedAs(t, bob); who != "" {
		t.Fatalf("the old cookie still admits, as %q", who)
	}
	if who := p.admittedAs(t, owner); who != "olga" {
		t.Fatalf("another session ended too (%q)", who)
	}
	// Logging out again, or with no session at all, just clears the cookie.
	for _, cookies := range [][]*http.Cookie{{bob}, nil} {
		if res := p.post(t, "/logout", nil, p.fromPage(), cookies...); res.status != http.StatusSeeOther {
			t.Fatalf("logout again: %d %s", res.status, res.body)
		}
	}
	if p.svc.Sessions(t.Context()) != 1 {
		t.Fatalf("%d sessions, want the owner's", p.svc.Sessions(t.Context()))
	}
}
