package page

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWriteEscapesAndIsSelfContained(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := Write(rec, http.StatusUnauthorized, Page{
		Title: "Not logged in", Body: "a <b>bold</b> claim", Command: "dsh login --config 'x y.yaml'",
		Link: "/dsh-excalidraw/", LinkText: "Open the editor", Detail: "code unauthenticated",
	}); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	if rec.Code != http.StatusUnauthorized || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	for _, want := range []string{"<title>dsh · Not logged in</title>", "a &lt;b&gt;bold&lt;/b&gt; claim", "dsh login --config &#39;x y.yaml&#39;", `href="/dsh-excalidraw/"`, "code unauthenticated"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "<b>"} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if rec.Header().Get("Content-Security-Policy") != CSP {
		t.Errorf("CSP %q", rec.Header().Get("Content-Security-Policy"))
	}
}

func TestWantsHTML(t *testing.T) {
	for _, tc := range []struct {
		name    string
		method  string
		headers map[string]string
		want    bool
	}{
		{"navigation", "GET", map[string]string{"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Accept": "text/html,*/*"}, true},
		{"fetch from the page", "GET", map[string]string{"Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty", "Accept": "*/*"}, false},
		{"event source", "GET", map[string]string{"Sec-Fetch-Mode": "cors", "Accept": "text/event-stream"}, false},
		{"old browser", "GET", map[string]string{"Accept": "text/html,application/xhtml+xml"}, true},
		{"curl", "GET", map[string]string{"Accept": "*/*"}, false},
		{"form post", "POST", map[string]string{"Sec-Fetch-Mode": "navigate"}, false},
	} {
		r := httptest.NewRequest(tc.method, "/", nil)
		for k, v := range tc.headers {
			r.Header.Set(k, v)
		}
		if got := WantsHTML(r); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFormPage(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := Write(rec, http.StatusUnauthorized, Page{
		Title: "Log in", Error: "Wrong name or password.",
		Form: &Form{Action: "/login", Submit: "Log in", Fields: []Field{
			{Name: "name", Label: "Name", Value: `bob"><script>`, Autocomplete: "username", Required: true, Autofocus: true},
			{Name: "password", Label: "Password", Type: "password", Value: "never shown", Autocomplete: "current-password", MinLength: 8},
			{Name: "next", Type: "hidden", Value: "/dsh-excalidraw/?scene=a&b"},
		}},
		ReferrerPolicy: "same-origin",
	}); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	for _, want := range []string{
		`<form method="post" action="/login">`,
		`<p class="error" role="alert">Wrong name or password.</p>`,
		`name="name" type="text" value="bob&#34;&gt;&lt;script&gt;" autocomplete="username" required autofocus>`,
		`name="password" type="password" autocomplete="current-password" minlength="8">`,
		`<input type="hidden" name="next" value="/dsh-excalidraw/?scene=a&amp;b">`,
		`<button type="submit">Log in</button>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"<script", "never shown", "http://", "https://"} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q:\n%s", bad, body)
		}
	}
	h := rec.Header()
	if h.Get("Content-Security-Policy") != FormCSP || !strings.Contains(FormCSP, "form-action 'self'") {
		t.Errorf("CSP %q", h.Get("Content-Security-Policy"))
	}
	if h.Get("Referrer-Policy") != "same-origin" || h.Get("Cache-Control") != "no-store" {
		t.Errorf("headers %v", h)
	}

	// Without a form: the strict policy, no referrer.
	rec = httptest.NewRecorder()
	_ = Write(rec, http.StatusOK, Page{Title: "t", Body: "b"})
	if rec.Header().Get("Content-Security-Policy") != CSP || !strings.Contains(CSP, "form-action 'none'") || rec.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers %v", rec.Header())
	}
	if strings.Contains(rec.Body.String(), "<form") {
		t.Error("a form on a page without one")
	}
}
