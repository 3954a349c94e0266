package connection

import (
	"fmt"
	"net/url"
	"strings"
)

// originSet is the immutable set of origins the server is reached at, plus
// the Host values they imply. It is replaced wholesale by SetOrigins so the
// per-request path reads it without locking.
type originSet struct {
	origins map[string]struct{}
	hosts   hostMatcher
}

func newOriginSet(origins ...string) (*originSet, error) {
	set := &originSet{origins: map[string]struct{}{}}
	hosts, _ := newHostMatcher(nil)
	set.hosts = hosts
	for _, o := range origins {
		norm, u, err := parseOrigin(o)
		if err != nil {
			return nil, err
		}
		set.origins[norm] = struct{}{}
		// An origin we are reached at is by definition a Host we serve.
		if err := set.hosts.add(u.Host); err != nil {
			return nil, err
		}
	}
	return set, nil
}

func (s *originSet) has(origin string) bool {
	norm, _, err := parseOrigin(origin)
	if err != nil {
		return false
	}
	_, ok := s.origins[norm]
	return ok
}

// parseOrigin canonicalises "scheme://host[:port]" so that a browser's Origin
// header and a configured origin compare equal regardless of case or an
// explicit default port. Anything with a path, query or credentials is not an
// origin and is refused rather than guessed at.
func parseOrigin(s string) (string, *url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", nil, fmt.Errorf("connection: invalid origin %q: %w", s, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", nil, fmt.Errorf("connection: origin %q must be http or https", s)
	}
	if u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", nil, fmt.Errorf("connection: %q is not an origin (scheme://host[:port])", s)
	}
	host := strings.ToLower(u.Host)
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	u = &url.URL{Scheme: scheme, Host: host}
	return u.String(), u, nil
}
