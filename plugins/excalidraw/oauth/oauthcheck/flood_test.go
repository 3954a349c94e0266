package oauthcheck_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// fromAddress is a plain client whose connections come from the loopback
// address addr (any of 127.0.0.0/8 on Linux), as another machine's would.
func fromAddress(t *testing.T, addr string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// flood registers perAddress clients from each of n addresses of the
// network 127.0.<network>.0/24 (from .2 on: 127.0.0.1 is the person's),
// all of which must be accepted.
func (a *asHost) flood(network, n, perAddress int) {
	a.t.Helper()
	for i := range n {
		c := fromAddress(a.t, fmt.Sprintf("127.0.%d.%d", network, i+2))
		for range perAddress {
			resp, b := dshtest.Send(a.t, c, http.MethodPost, a.h.URL()+"/oauth/register",
				`{"client_name":"flood","redirect_uris":["http://127.0.0.1:9/cb"]}`, "Content-Type", "application/json")
			if resp.StatusCode != http.StatusCreated {
				a.t.Fatalf("a registration of the flood: %d %s", resp.StatusCode, b)
			}
		}
	}
}

// A person connects an agent while anonymous registrations flood the
// host, far past its cap on ungranted clients (the probe's 1,000 made
// every later registration 503): each address is held to its hourly
// registrations (429 rate_limited with retryAfterSec), registration is
// never refused for the cap, the person's client, alone on its network,
// outlives the flood, and once its consent page is open no flood evicts
// it; the person approves and the client gets its token.
func TestPersonConnectsDuringAFlood(t *testing.T) {
	a := startASConfig(t, "{oauth: {registrationsPerHourPerAddress: 5, maxUngrantedClients: 10}}")
	a.flood(7, 4, 5)
	resp, b := dshtest.Send(t, fromAddress(t, "127.0.7.2"), http.MethodPost, a.h.URL()+"/oauth/register",
		`{"redirect_uris":["http://127.0.0.1:9/cb"]}`, "Content-Type", "application/json")
	var limited struct {
		Error   string         `json:"error"`
		Details map[string]any `json:"details"`
	}
	if resp.StatusCode != http.StatusTooManyRequests || json.Unmarshal(b, &limited) != nil || limited.Error != "rate_limited" ||
		limited.Details["retryAfterSec"] == nil || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a sixth registration from one address within the hour: %d %s", resp.StatusCode, b)
	}

	cb := "http://127.0.0.1:9/cb"
	client := a.register(cb) // from 127.0.0.1
	a.flood(8, 6, 5)         // 30 more, from another network
	verifier, challenge := pkce()
	consent := url.Values{"client_id": {client}, "redirect_uri": {cb}, "response_type": {"code"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st8"}}
	resp, err := a.browser.Get(a.h.URL() + "/oauth/authorize?" + consent.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "Allow") {
		t.Fatalf("the consent page after the flood: %d %s", resp.StatusCode, page)
	}
	// While the person decides, floods from every network evict only
	// their own (the person's network too: the person's client is seen).
	a.flood(0, 3, 5)
	a.flood(9, 6, 5)
	code := a.approve(client, cb, challenge, []string{"plan"}, "editor").Query().Get("code")
	st, out := a.exchange(client, cb, code, verifier)
	token, _ := out["access_token"].(string)
	if st != http.StatusOK || !strings.HasPrefix(token, "dsh_") {
		t.Fatalf("the exchange after the flood: %d %v", st, out)
	}
	resp, _ = dshtest.Send(t, a.plain, http.MethodGet, a.h.URL()+"/dsh-excalidraw/api/scenes/plan", "", "Authorization", "Bearer "+token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the token on its board: %d", resp.StatusCode)
	}
	// And a newcomer still registers.
	resp, b = dshtest.Send(t, fromAddress(t, "127.0.10.1"), http.MethodPost, a.h.URL()+"/oauth/register",
		`{"redirect_uris":["http://127.0.0.1:9/cb"]}`, "Content-Type", "application/json")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("a registration after the flood: %d %s", resp.StatusCode, b)
	}
}
