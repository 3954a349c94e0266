package connection

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// A client's address is its peer's unless the peer is a trusted proxy;
// then it is the nearest forwarded address that is not a trusted proxy.
// What a client writes into X-Forwarded-For itself (the entries left of
// what the proxies appended) is never believed, and an untrusted peer's
// header is never read: otherwise anyone could pick the address a limit
// counts them by.
func TestClientAddress(t *testing.T) {
	svc, err := New(Config{TrustedProxies: []string{"10.0.0.0/8", "::1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, peer string
		forwarded  []string
		want       string
	}{
		{"no proxy", "203.0.113.9:4000", nil, "203.0.113.9"},
		{"an untrusted peer's header is not read", "203.0.113.9:4000", []string{"198.51.100.1"}, "203.0.113.9"},
		{"through a trusted proxy", "10.1.2.3:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"what the client wrote is not believed", "10.1.2.3:80", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"two trusted proxies", "10.1.2.3:80", []string{"198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"across header lines", "10.1.2.3:80", []string{"1.2.3.4", "198.51.100.1", "10.9.9.9"}, "198.51.100.1"},
		{"a trusted proxy with no header", "10.1.2.3:80", nil, "10.1.2.3"},
		{"a hop that is no address", "10.1.2.3:80", []string{"198.51.100.1, garbage"}, "10.1.2.3"},
		{"IPv6 loopback proxy", "[::1]:80", []string{"2001:db8::7"}, "2001:db8::7"},
		{"an IPv4-mapped peer", "[::ffff:203.0.113.9]:80", nil, "203.0.113.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("PUT", "/files/shareLinks/x", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.forwarded {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := svc.ClientAddress(r); got.String() != tc.want {
				t.Fatalf("ClientAddress = %s, want %s", got, tc.want)
			}
			// Marked on the request, it is what handlers read.
			if got := ClientAddress(WithClientAddress(r, svc.ClientAddress(r))); got.String() != tc.want {
				t.Fatalf("marked: %s, want %s", got, tc.want)
			}
		})
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.1.2.3:80"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	if got := ClientAddress(r); got.String() != "10.1.2.3" {
		t.Fatalf("an unmarked request's client is its peer, got %s", got)
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":            "192.0.2.7",
		"2001:db8:1:2::1":      "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9": "2001:db8:1:2::/64",
	} {
		if got := AddressKey(netip.MustParseAddr(in)); got != want {
			t.Errorf("AddressKey(%s) = %s, want %s", in, got, want)
		}
	}
	if got := AddressKey(netip.Addr{}); got != "unknown" {
		t.Errorf("AddressKey(zero) = %s", got)
	}
}
