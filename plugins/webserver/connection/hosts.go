package connection

import (
	"errors"
	"net"
	"strings"
)

// defaultHosts are accepted when no AllowedHosts are configured: the names a
// loopback-bound server is legitimately reached by. A rebinding attacker's
// page carries its own DNS name in Host, which is not among them.
var defaultHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// hostMatcher answers "is this Host header one we serve?". An entry without a
// port allows any port (ports change with ":0" listeners); an entry with a
// port allows exactly that host:port.
type hostMatcher struct {
	anyPort map[string]struct{}
	exact   map[string]struct{}
}

func newHostMatcher(entries []string) (hostMatcher, error) {
	m := hostMatcher{anyPort: map[string]struct{}{}, exact: map[string]struct{}{}}
	for _, e := range entries {
		if err := m.add(e); err != nil {
			return hostMatcher{}, err
		}
	}
	return m, nil
}

func (m hostMatcher) add(entry string) error {
	host, port := splitHost(strings.TrimSpace(entry))
	if host == "" {
		return errors.New("connection: empty allowed host")
	}
	if port == "" {
		m.anyPort[host] = struct{}{}
		return nil
	}
	m.exact[net.JoinHostPort(host, port)] = struct{}{}
	return nil
}

func (m hostMatcher) allows(hostHeader string) bool {
	host, port := splitHost(hostHeader)
	if host == "" {
		return false
	}
	if _, ok := m.anyPort[host]; ok {
		return true
	}
	if port == "" {
		return false
	}
	_, ok := m.exact[net.JoinHostPort(host, port)]
	return ok
}

// splitHost splits "host", "host:port", "[v6]" and "[v6]:port" into a
// lower-cased host without brackets and a (possibly empty) port.
func splitHost(s string) (host, port string) {
	s = strings.ToLower(s)
	if h, p, err := net.SplitHostPort(s); err == nil {
		return h, p
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return s[1 : len(s)-1], ""
	}
	return s, ""
}
