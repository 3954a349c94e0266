package connection

import (
	"net/http"
	"strings"
)

// Principal kinds.
const (
	PrincipalToken   = "token"   // a bearer token
	PrincipalSession = "session" // a browser session cookie
)

// Principal is the credential admission let a request in with: a bearer
// token or a browser session. Routes use it to account per client; the
// MCP endpoint caps the sessions each principal may hold open.
type Principal struct {
	// Kind is PrincipalToken or PrincipalSession.
	Kind string
	// ID is stable and not secret: a token record's ID (for a configured
	// token without one, "sha256:" and the first 12 hex digits of its
	// hash), a browser session's ID.
	ID string
	// Name is for people: a token's name, a browser session's label.
	Name string
}

// String is "kind:id", e.g. "token:tok_1a2b3c4d5e6f".
func (p Principal) String() string { return p.Kind + ":" + p.ID }

// Principal reports the credential r carries that admission accepts, or
// ok=false when it carries none that is valid. It verifies the credential
// again (a hash and a lookup) but not the Host and Origin rules, so call it
// for requests RequestRejection admitted, not instead of it.
func (s *Service) Principal(r *http.Request) (p Principal, ok bool) {
	if s == nil || s.closed.Load() {
		return Principal{}, false
	}
	if token, isBearer := bearerToken(r); isBearer {
		rec, ok := s.verifyBearer(token)
		if !ok {
			return Principal{}, false
		}
		id := rec.ID
		if id == "" {
			id = "sha256:" + strings.ToLower(rec.SHA256)[:12]
		}
		return Principal{Kind: PrincipalToken, ID: id, Name: rec.Name}, true
	}
	c, err := r.Cookie(s.cfg.CookieName)
	if err != nil {
		return Principal{}, false
	}
	rec, ok, err := s.sessions.lookup(c.Value)
	if err != nil || !ok {
		return Principal{}, false
	}
	return Principal{Kind: PrincipalSession, ID: rec.ID, Name: rec.Label}, true
}
