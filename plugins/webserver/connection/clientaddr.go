package connection

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddresser tells a request's client address; *Service does.
type ClientAddresser interface {
	ClientAddress(r *http.Request) netip.Addr
}

var _ ClientAddresser = (*Service)(nil)

// clientAddrKey is the request context key of the client's address, as
// the web server established it (WithClientAddress).
type clientAddrKey struct{}

// WithClientAddress returns r carrying a as its client's address, which
// ClientAddress then answers. The web server sets it on every request a
// plugin route serves, from Service.ClientAddress.
func WithClientAddress(r *http.Request, a netip.Addr) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientAddrKey{}, a))
}

// ClientAddress is the address of the client r comes from, as the web
// server established it (behind a trusted proxy, the client the proxy
// names; see Service.ClientAddress); on a request it has not seen, r's
// peer. It is what limits per client count by (with AddressKey). The
// zero Addr means the address could not be told.
func ClientAddress(r *http.Request) netip.Addr {
	if a, ok := r.Context().Value(clientAddrKey{}).(netip.Addr); ok {
		return a
	}
	return peerAddress(r)
}

// peerAddress is r's peer: the other end of its connection.
func peerAddress(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return parseAddr(host)
}

func parseAddr(s string) netip.Addr {
	a, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap().WithZone("")
}

// ClientAddress is the address of r's client: its peer, unless the peer
// is a trusted proxy (Config.TrustedProxies). Then it is the nearest
// address in X-Forwarded-For that is not itself a trusted proxy, read
// from the right: each proxy appends the address it saw, so the entries
// left of the first untrusted one are the client's to write and are
// never believed. A header from an untrusted peer is never read.
func (s *Service) ClientAddress(r *http.Request) netip.Addr {
	peer := peerAddress(r)
	if s == nil || !s.trusted(peer) {
		return peer
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			a := parseAddr(parts[j])
			if !a.IsValid() {
				return peer // a hop that is no address: believe nothing past it
			}
			if !s.trusted(a) {
				return a
			}
		}
	}
	return peer
}

// AddressKey is what a limit per client counts a by: an IPv4 address, an
// IPv6 address's /64 (what one host is usually given), or "unknown".
func AddressKey(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "unknown"
	case a.Is6():
		return netip.PrefixFrom(a, 64).Masked().String()
	default:
		return a.String()
	}
}
