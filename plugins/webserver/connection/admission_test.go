package connection

import (
	"net/http"
	"strings"
	"testing"
)

// TestAdmissionByCredential is the rule in one table: the CSRF/provenance
// checks protect cookie-authenticated requests; a request with no
// credentials and no hostile provenance is merely unauthenticated (401, so
// an MCP client learns it should send a bearer token), while one that says
// it comes from another site is still refused as such.
func TestAdmissionByCredential(t *testing.T) {
	p := newProbe(t, Config{})
	session := p.login(t)
	bogus := &http.Cookie{Name: DefaultCookieName, Value: newSecret()}
	self := p.srv.URL
	cases := []struct {
		name   string
		method string
		hdr    map[string]string
		cookie *http.Cookie
		status int
		code   string // "" = admitted
	}{
		// No credentials at all.
		{"no credentials, POST", http.MethodPost, nil, nil, 401, CodeUnauthenticated},
		{"no credentials, GET", http.MethodGet, nil, nil, 401, CodeUnauthenticated},
		{"no credentials, DELETE", http.MethodDelete, nil, nil, 401, CodeUnauthenticated},
		{"no credentials, unknown method", "PURGE", nil, nil, 401, CodeUnauthenticated},
		{"no credentials, POST from a typed URL", http.MethodPost, map[string]string{"Sec-Fetch-Site": "none"}, nil, 401, CodeUnauthenticated},
		{"no credentials, POST same-origin", http.MethodPost, map[string]string{"Origin": self}, nil, 401, CodeUnauthenticated},
		{"no credentials, foreign Origin, GET", http.MethodGet, map[string]string{"Origin": "http://evil.example"}, nil, 403, CodeForbiddenOrigin},
		{"no credentials, foreign Origin, POST", http.MethodPost, map[string]string{"Origin": "http://evil.example"}, nil, 403, CodeForbiddenOrigin},
		{"no credentials, null Origin", http.MethodPost, map[string]string{"Origin": "null"}, nil, 403, CodeForbiddenOrigin},
		{"no credentials, cross-site fetch", http.MethodPost, map[string]string{"Sec-Fetch-Site": "cross-site"}, nil, 403, CodeForbiddenOrigin},
		{"no credentials, same-site fetch", http.MethodGet, map[string]string{"Sec-Fetch-Site": "same-site"}, nil, 403, CodeForbiddenOrigin},
		{"no credentials, other Authorization scheme", http.MethodPost, map[string]string{"Authorization": "Basic YTpi"}, nil, 401, CodeUnauthenticated},
		// Bearer tokens.
		{"invalid bearer", http.MethodPost, map[string]string{"Authorization": "Bearer dsh_wrong"}, nil, 401, CodeInvalidToken},
		{"empty bearer", http.MethodGet, map[string]string{"Authorization": "Bearer"}, nil, 401, CodeInvalidToken},
		{"invalid bearer with a session", http.MethodGet, map[string]string{"Authorization": "Bearer dsh_wrong", "Sec-Fetch-Site": "same-origin"}, session, 401, CodeInvalidToken},
		// Session cookies: provenance is what CSRF defence rests on.
		{"session, POST without provenance", http.MethodPost, nil, session, 403, CodeCSRFRejected},
		{"session, POST from a typed URL", http.MethodPost, map[string]string{"Sec-Fetch-Site": "none"}, session, 403, CodeCSRFRejected},
		{"session, POST foreign Origin", http.MethodPost, map[string]string{"Origin": "http://evil.example"}, session, 403, CodeForbiddenOrigin},
		{"session, POST same-origin", http.MethodPost, map[string]string{"Origin": self}, session, 200, ""},
		{"session, GET", http.MethodGet, nil, session, 200, ""},
		{"unknown cookie, POST without provenance", http.MethodPost, nil, bogus, 403, CodeCSRFRejected},
		{"unknown cookie, POST same-origin", http.MethodPost, map[string]string{"Origin": self}, bogus, 401, CodeUnauthenticated},
		{"unknown cookie, GET", http.MethodGet, nil, bogus, 401, CodeUnauthenticated},
		// The Host check comes before everything.
		{"no credentials, foreign Host", http.MethodPost, map[string]string{"Host": "rebind.evil.example"}, nil, 403, CodeForbiddenHost},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tc.cookie != nil {
				cookies = append(cookies, &http.Cookie{Name: tc.cookie.Name, Value: tc.cookie.Value})
			}
			res := p.do(t, tc.method, "/api", tc.hdr, cookies...)
			if tc.code == "" {
				if res.status != http.StatusOK || !strings.Contains(res.body, "admitted") {
					t.Fatalf("got %d %s, want admitted", res.status, res.body)
				}
				return
			}
			expect(t, res, tc.status, tc.code)
		})
	}
}
