package connection

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"go.uber.org/zap"
)

// proxyRanges parses TrustedProxies: IPs or CIDR ranges.
func proxyRanges(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("connection: trusted proxy %q is not an IP address or CIDR range", s)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// fromTrustedProxy reports whether r's connection comes from a trusted
// proxy (its peer address, never a header: X-Forwarded-For is the
// client's to write).
func (s *Service) fromTrustedProxy(r *http.Request) bool {
	return s.trusted(peerAddress(r))
}

// trusted reports whether a is a trusted proxy's address.
func (s *Service) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// proxyPrincipal is the person a trusted proxy names in r, if it names
// one. ok is false when r does not come from a trusted proxy or carries
// neither header; a named person without an account is refused.
func (s *Service) proxyPrincipal(r *http.Request) (p Principal, named bool, rej *Rejection) {
	if !s.fromTrustedProxy(r) {
		return Principal{}, false, nil
	}
	name := strings.TrimSpace(r.Header.Get(s.cfg.ProxyUserHeader))
	email := strings.TrimSpace(r.Header.Get(s.cfg.ProxyEmailHeader))
	if name == "" && email == "" {
		return Principal{}, false, nil
	}
	if s.cfg.Accounts == nil {
		return Principal{}, true, unauthenticated()
	}
	person, ok := s.findPerson(r.Context(), name, email)
	if !ok {
		s.log.Info("trusted proxy named no known person", zap.String("user", name), zap.String("email", email))
		return Principal{}, true, reject(http.StatusForbidden, CodeUnknownPerson,
			"you are signed in at the proxy, but this dsh host has no account for you; ask its owner to run `dsh user add NAME`")
	}
	return Principal{Kind: "proxy", ID: person.ID, Name: person.Name, Person: person.ID, PersonName: person.Name,
		Admin: person.Owner, HostOwner: person.Owner}, true, nil
}

// findPerson is the account with this login name, else with this email.
func (s *Service) findPerson(ctx context.Context, name, email string) (accountsPerson, bool) {
	if name != "" {
		if p, ok, err := s.cfg.Accounts.ByName(ctx, name); err == nil && ok {
			return accountsPerson{ID: p.ID, Name: p.Name, Owner: p.Owner}, true
		}
	}
	if email != "" {
		list, err := s.cfg.Accounts.List(ctx)
		if err != nil {
			return accountsPerson{}, false
		}
		for _, p := range list {
			if p.Email != "" && strings.EqualFold(p.Email, email) {
				return accountsPerson{ID: p.ID, Name: p.Name, Owner: p.Owner}, true
			}
		}
	}
	return accountsPerson{}, false
}

type accountsPerson struct {
	ID, Name string
	Owner    bool
}
