package connection

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestForeignOriginRefusedWhateverTheCredential: a request that carries an
// Origin other than the server's own (or an allowed one) is refused with
// 403 forbidden_origin even with a valid bearer token, as the MCP
// transport spec demands; the same token with the server's origin (or the
// origin the request is addressed to, as through a local proxy), or with
// no Origin at all (a program), is admitted. An allowed origin lets bearer
// requests in but never a session cookie.
func TestForeignOriginRefusedWhateverTheCredential(t *testing.T) {
	const token = "dsh_origin-rule-token"
	const inspector = "http://localhost:6274"
	p := newProbe(t, Config{
		Tokens:         []TokenRecord{{ID: "t", Name: "agent", SHA256: HashToken(token)}},
		AllowedOrigins: []string{inspector},
	})
	session := p.login(t)
	bearer := "Bearer " + token
	cases := []struct {
		name   string
		method string
		hdr    map[string]string
		cookie *http.Cookie
		status int
		code   string // "" = admitted
	}{
		{"bearer, foreign Origin", http.MethodPost, map[string]string{"Authorization": bearer, "Origin": "http://evil.example"}, nil, 403, CodeForbiddenOrigin},
		{"bearer, foreign Origin, GET", http.MethodGet, map[string]string{"Authorization": bearer, "Origin": "http://evil.example"}, nil, 403, CodeForbiddenOrigin},
		{"bearer, null Origin", http.MethodPost, map[string]string{"Authorization": bearer, "Origin": "null"}, nil, 403, CodeForbiddenOrigin},
		{"bearer, own origin on another port", http.MethodPost, map[string]string{"Authorization": bearer, "Origin": "http://127.0.0.1:1"}, nil, 403, CodeForbiddenOrigin},
		{"invalid bearer, foreign Origin", http.MethodPost, map[string]string{"Authorization": "Bearer dsh_wrong", "Origin": "http://evil.example"}, nil, 403, CodeForbiddenOrigin},
		{"bearer, own origin", http.MethodPost, map[string]string{"Authorization": bearer, "Origin": p.srv.URL}, nil, 200, ""},
		{"bearer, no Origin", http.MethodPost, map[string]string{"Authorization": bearer}, nil, 200, ""},
		{"bearer, the origin it is addressed to", http.MethodPost, map[string]string{"Authorization": bearer, "Host": "127.0.0.1:9999", "Origin": "http://127.0.0.1:9999"}, nil, 200, ""},
		{"bearer, another name of it", http.MethodPost, map[string]string{"Authorization": bearer, "Host": "127.0.0.1:9999", "Origin": "http://localhost:9999"}, nil, 403, CodeForbiddenOrigin},
		{"bearer, another scheme of it", http.MethodPost, map[string]string{"Authorization": bearer, "Host": "127.0.0.1:9999", "Origin": "https://127.0.0.1:9999"}, nil, 403, CodeForbiddenOrigin},
		{"session, the origin it is addressed to via a proxy", http.MethodPost, map[string]string{"Host": "127.0.0.1:9999", "Origin": "http://127.0.0.1:9999"}, session, 403, CodeForbiddenOrigin},
		{"bearer, allowed origin", http.MethodPost, map[string]string{"Authorization": bearer, "Origin": inspector, "Sec-Fetch-Site": "same-site"}, nil, 200, ""},
		{"no credentials, allowed origin", http.MethodPost, map[string]string{"Origin": inspector, "Sec-Fetch-Site": "same-site"}, nil, 401, CodeUnauthenticated},
		{"session, allowed origin", http.MethodPost, map[string]string{"Origin": inspector}, session, 403, CodeForbiddenOrigin},
		{"session, allowed origin, GET", http.MethodGet, map[string]string{"Origin": inspector}, session, 403, CodeForbiddenOrigin},
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

	// Two Origin headers are no origin at all.
	req, _ := http.NewRequest(http.MethodPost, p.srv.URL+"/api", nil)
	req.Header.Set("Authorization", bearer)
	req.Header.Add("Origin", p.srv.URL)
	req.Header.Add("Origin", "http://evil.example")
	if rej := p.svc.RequestRejection(req); rej == nil || rej.Code != CodeForbiddenOrigin {
		t.Fatalf("two Origins: %v", rej)
	}
}

func TestNewRejectsBadAllowedOrigin(t *testing.T) {
	for _, o := range []string{"localhost:6274", "http://localhost:6274/path", "ftp://x"} {
		if _, err := New(Config{AllowedOrigins: []string{o}}, nil); err == nil {
			t.Errorf("%q accepted", o)
		}
	}
}

// TestAllowedOriginIsNoHost: allowing a page's origin does not make its
// host a Host value the server answers to (unlike PublicOrigins).
func TestAllowedOriginIsNoHost(t *testing.T) {
	p := newProbe(t, Config{AllowedOrigins: []string{"https://tools.example"}})
	expect(t, p.do(t, http.MethodGet, "/api", map[string]string{"Host": "tools.example"}), 403, CodeForbiddenHost)
}

// TestPrincipal names the credential a request carries: the token's
// record ID (or its hash prefix when it has none), the browser session's
// ID, nothing for no or invalid credentials.
func TestPrincipal(t *testing.T) {
	const withID, withoutID = "dsh_principal-a", "dsh_principal-b"
	p := newProbe(t, Config{Tokens: []TokenRecord{
		{ID: "tok_a", Name: "agent", SHA256: HashToken(withID)},
		{Name: "ci", SHA256: HashToken(withoutID)},
	}})
	session := p.login(t)
	who := func(hdr map[string]string, cookie *http.Cookie) (Principal, bool) {
		r := httptest.NewRequest(http.MethodGet, "/mcp", nil)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		if cookie != nil {
			r.AddCookie(cookie)
		}
		return p.svc.Principal(r)
	}
	if got, ok := who(map[string]string{"Authorization": "Bearer " + withID}, nil); !ok || got != (Principal{Kind: PrincipalToken, ID: "tok_a", Name: "agent", Admin: true}) || got.String() != "token:tok_a" {
		t.Fatalf("token with id: %+v %v", got, ok)
	}
	if got, ok := who(map[string]string{"Authorization": "Bearer " + withoutID}, nil); !ok || got.ID != "sha256:"+HashToken(withoutID)[:12] || got.Name != "ci" {
		t.Fatalf("token without id: %+v %v", got, ok)
	}
	got, ok := who(nil, &http.Cookie{Name: session.Name, Value: session.Value})
	list, _ := p.svc.ListSessions(t.Context())
	if !ok || got.Kind != PrincipalSession || len(list) != 1 || got.ID != list[0].ID {
		t.Fatalf("session: %+v %v (sessions %v)", got, ok, list)
	}
	for _, hdr := range []map[string]string{nil, {"Authorization": "Bearer dsh_wrong"}} {
		if got, ok := who(hdr, nil); ok {
			t.Fatalf("%v: %+v", hdr, got)
		}
	}
}
