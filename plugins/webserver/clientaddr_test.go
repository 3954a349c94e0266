package webserver

import (
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Every route's handler, public or not, reads the client's address as
// admission tells it: behind a trusted proxy (host.trustedProxy), the
// client the proxy forwarded; otherwise the peer, whatever
// X-Forwarded-For says. Limits per client (share links' uploads, OAuth
// registrations) count by it, so nodes behind a load balancer do not
// count every client as the balancer.
func TestHandlersSeeTheClientAddress(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []string
		want    string
	}{
		{"behind a trusted proxy", []string{"127.0.0.1"}, "198.51.100.1"},
		{"from an untrusted peer", nil, "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := connection.New(connection.Config{TrustedProxies: tc.proxies}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			s := startServer(t, Config{}, func() connection.Admitter { return conn })
			if _, err := s.Mount("addr", Route{Method: http.MethodGet, Path: "/addr", Public: true, Handler: func(c echo.Context) error {
				return c.String(http.StatusOK, connection.ClientAddress(c.Request()).String())
			}}); err != nil {
				t.Fatal(err)
			}
			r := call(t, newClient(t), http.MethodGet, s.URL()+"/addr", nil, "X-Forwarded-For", "203.0.113.5, 198.51.100.1")
			if r.status != http.StatusOK || r.body != tc.want {
				t.Fatalf("the handler saw %d %q, want %s", r.status, r.body, tc.want)
			}
		})
	}
}
