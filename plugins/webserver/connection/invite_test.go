package connection

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestInviteAcceptedEndToEnd(t *testing.T) {
	p := newPeopleProbe(t)
	dave, secret, err := p.accounts.Add(t.Context(), "dave", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	link := InviteURL(p.srv.URL+"/", p.svc.LoginPath(), secret)
	if want := p.srv.URL + "/login/invite?token="; !strings.HasPrefix(link, want) {
		t.Fatalf("link %q", link)
	}

	form := p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), nil)
	if form.status != http.StatusOK {
		t.Fatalf("form: %d %s", form.status, form.body)
	}
	h := form.resp.Header
	if h.Get("Referrer-Policy") != "no-referrer" || h.Get("Cache-Control") != "no-store" || !strings.Contains(h.Get("Content-Security-Policy"), "form-action 'self'") {
		t.Fatalf("headers %v", h)
	}
	// The secret is only in the hidden field: in no link, not in the
	// form's action.
	hidden := `<input type="hidden" name="token" value="` + secret + `">`
	if strings.Count(form.body, secret) != 1 || !strings.Contains(form.body, hidden) ||
		!strings.Contains(form.body, `<form method="post" action="/login/invite">`) || !strings.Contains(form.body, `value="dave"`) {
		t.Fatalf("form:\n%s", form.body)
	}
	for _, bad := range []string{"<script", "http://", "https://", "token=" + secret} {
		if strings.Contains(form.body, bad) {
			t.Fatalf("form contains %q:\n%s", bad, form.body)
		}
	}

	// Two different passwords, then a weak one: the form again with the
	// rule; the invite still works.
	for _, tc := range []struct{ password, confirm, want string }{
		{"correct horse battery", "correct horse batterY", "The two passwords are not the same"},
		{"short", "short", "A password must be at least 8 characters long"},
	} {
		res := p.post(t, "/login/invite", url.Values{"token": {secret}, "password": {tc.password}, "confirm": {tc.confirm}}, p.fromPage())
		if res.status != http.StatusBadRequest || !strings.Contains(res.body, tc.want) || !strings.Contains(res.body, hidden) || len(res.resp.Cookies()) != 0 {
			t.Fatalf("%+v: %d\n%s", tc, res.status, res.body)
		}
	}
	if p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), nil).status != http.StatusOK {
		t.Fatal("a refused password used the invite up")
	}

	// Posted from a no-referrer page, a browser sends Origin: null; its
	// Sec-Fetch-Site says same-origin.
	res := p.post(t, "/login/invite", url.Values{"token": {secret}, "password": {"correct horse battery"}, "confirm": {"correct horse battery"}},
		map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"})
	if res.status != http.StatusSeeOther || res.resp.Header.Get("Location") != "/" {
		t.Fatalf("accept: %d %q %s", res.status, res.resp.Header.Get("Location"), res.body)
	}
	c := sessionCookie(t, res)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Fatalf("cookie %+v", c)
	}
	if who := p.admittedAs(t, c); who != "dave" {
		t.Fatalf("session admitted as %q", who)
	}
	if list, _ := p.svc.ListSessions(t.Context()); len(list) != 1 || list[0].Person != dave.ID {
		t.Fatalf("sessions %+v", list)
	}

	// Used up: both the link and its form say so, with the command.
	for _, res := range []probeResult{
		p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), nil),
		p.post(t, "/login/invite", url.Values{"token": {secret}, "password": {"another good one"}, "confirm": {"another good one"}}, p.fromPage()),
	} {
		if res.status != http.StatusForbidden || !strings.Contains(res.body, "Invite not valid") ||
			!strings.Contains(res.body, "dsh user reinvite NAME --config /srv/dsh.yaml") || len(res.resp.Cookies()) != 0 {
			t.Fatalf("reused invite: %d\n%s", res.status, res.body)
		}
	}
	// The password set through the invite is dave's.
	if res := p.post(t, "/login", url.Values{"name": {"dave"}, "password": {"correct horse battery"}}, p.fromPage()); res.status != http.StatusSeeOther {
		t.Fatalf("password login: %d %s", res.status, res.body)
	}
	if res := p.post(t, "/login", url.Values{"name": {"dave"}, "password": {"another good one"}}, p.fromPage()); res.status != http.StatusUnauthorized {
		t.Fatalf("second invite's password: %d", res.status)
	}
}

func TestInviteRefusals(t *testing.T) {
	p := newPeopleProbe(t)
	clk := newFakeClock()
	clk.t = time.Now() // the accounts' own clock is the real one
	p.svc.now = clk.Now
	_, secret, err := p.accounts.Add(t.Context(), "erin", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	good := url.Values{"token": {secret}, "password": {"correct horse battery"}, "confirm": {"correct horse battery"}}

	// Forged, empty, missing: the same page.
	for _, path := range []string{"/login/invite?token=forged", "/login/invite?token=", "/login/invite"} {
		if res := p.do(t, http.MethodGet, path, nil); res.status != http.StatusForbidden || !strings.Contains(res.body, "dsh user reinvite NAME") {
			t.Fatalf("%s: %d %s", path, res.status, res.body)
		}
	}
	// Another site's post, or one that proves nothing, is refused and
	// uses nothing up.
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Origin": "null", "Sec-Fetch-Site": "cross-site"},
		{},
	} {
		if res := p.post(t, "/login/invite", good, h); res.status != http.StatusForbidden || len(res.resp.Cookies()) != 0 {
			t.Fatalf("%v: %d %s", h, res.status, res.body)
		}
	}
	if res := p.post(t, "/login/invite", good, map[string]string{"Origin": p.srv.URL, "Host": "evil.example"}); res.status != http.StatusForbidden {
		t.Fatalf("foreign Host: %d", res.status)
	}
	if res := p.do(t, http.MethodGet, "/login/invite?token="+url.QueryEscape(secret), map[string]string{"Host": "evil.example"}); res.status != http.StatusForbidden || strings.Contains(res.body, secret) {
		t.Fatalf("foreign Host GET: %d", res.status)
	}
	if res := p.do(t, http.MethodDelete, "/login/invite", nil); res.status != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE: %d", res.status)
	}

	// Expired.
	clk.Advance(2 * time.Hour)
	if res := p.do(t, http.MethodGet, "/login/invite?token="+url.QueryEscape(secret), nil); res.status != http.StatusForbidden {
		t.Fatalf("expired: %d", res.status)
	}
	clk.Advance(-2 * time.Hour)
	// Still usable before it expires, after all of that.
	if res := p.post(t, "/login/invite", good, p.fromPage()); res.status != http.StatusSeeOther {
		t.Fatalf("accept: %d %s", res.status, res.body)
	}
}
