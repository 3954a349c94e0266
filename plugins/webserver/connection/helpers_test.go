package connection

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// admissionProbe serves LoginHandler at the login path and, everywhere
// else, answers with the admission decision, so tests observe admission
// exactly as a browser or program would: over real HTTP on 127.0.0.1.
type admissionProbe struct {
	svc    *Service
	srv    *httptest.Server
	client *http.Client
}

func newProbe(t *testing.T, cfg Config) *admissionProbe {
	t.Helper()
	svc, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(svc.LoginPath(), svc.LoginHandler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if rej := svc.RequestRejection(r); rej != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rej.Status)
			_ = json.NewEncoder(w).Encode(map[string]string{"code": rej.Code, "message": rej.Message})
			return
		}
		_, _ = io.WriteString(w, "admitted")
	})
	srv := httptest.NewServer(mux)
	svc.SetOrigins(srv.URL)
	transport := &http.Transport{}
	client := &http.Client{
		Transport: transport,
		// Tests inspect redirects themselves.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
		svc.Close()
	})
	return &admissionProbe{svc: svc, srv: srv, client: client}
}

type probeResult struct {
	status int
	code   string
	body   string
	resp   *http.Response
}

func (p *admissionProbe) do(t *testing.T, method, path string, header map[string]string, cookies ...*http.Cookie) probeResult {
	t.Helper()
	return p.request(t, method, path, nil, header, cookies...)
}

// request sends body (nil: none) to path with header (nil: none; "Host"
// sets the request's host) and cookies, and returns what came back.
func (p *admissionProbe) request(t *testing.T, method, path string, body io.Reader, header map[string]string, cookies ...*http.Cookie) probeResult {
	t.Helper()
	req, err := http.NewRequest(method, p.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	res := probeResult{status: resp.StatusCode, body: string(got), resp: resp}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		var v struct{ Code string }
		_ = json.Unmarshal(got, &v)
		res.code = v.Code
	}
	return res
}

// login follows a fresh login link and returns the session cookie.
func (p *admissionProbe) login(t *testing.T) *http.Cookie {
	t.Helper()
	link := p.svc.NewLoginLink(t.Context(), p.srv.URL)
	res := p.do(t, http.MethodGet, strings.TrimPrefix(link, p.srv.URL), nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("login: status %d body %q", res.status, res.body)
	}
	for _, c := range res.resp.Cookies() {
		if c.Name == p.svc.Config().CookieName {
			return c
		}
	}
	t.Fatal("login set no session cookie")
	return nil
}

func (p *admissionProbe) sameOrigin() map[string]string {
	return map[string]string{"Origin": p.srv.URL, "Sec-Fetch-Site": "same-origin"}
}

func expect(t *testing.T, res probeResult, status int, code string) {
	t.Helper()
	if res.status != status || res.code != code {
		t.Fatalf("got %d %q (%s), want %d %q", res.status, res.code, res.body, status, code)
	}
}
