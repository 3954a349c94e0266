package connection

import (
	"context"
	"net/http"
	"strings"

	"github.com/dshgo/dsh/plugins/identity"
)

// Principal kinds (identity's credential kinds).
const (
	PrincipalToken   = identity.KindToken   // a bearer token
	PrincipalSession = identity.KindSession // a browser session cookie
)

// Principal is the credential admission let a request in with, and the
// person it acts for (see identity.Principal). Routes use it to account
// per client and to decide; the MCP endpoint caps the sessions each
// principal may hold open.
type Principal = identity.Principal

// People resolves the person a session or a connect token acts for. The
// host gives the connection service its accounts; without People every
// session acts as the host's owner (there is no one else) and a connect
// token's person is unknown.
type People interface {
	// Person is the person with this id: their name, and whether they are
	// the host's owner. ok is false for no such person (removed): their
	// credentials no longer work.
	Person(ctx context.Context, id string) (name string, owner bool, ok bool)
	// OwnerID is the host owner's person id ("" when there is none yet).
	OwnerID(ctx context.Context) string
}

// Principal reports the credential r carries that admission accepts, or
// ok=false when it carries none that is valid. It verifies the credential
// again (a hash and a lookup) but not the Host and Origin rules, so call it
// for requests RequestRejection admitted, not instead of it.
func (s *Service) Principal(r *http.Request) (p Principal, ok bool) {
	if s == nil || s.closed.Load() {
		return Principal{}, false
	}
	if token, isBearer := s.bearerToken(r); isBearer {
		return s.tokenPrincipal(r.Context(), token)
	}
	if p, named, rej := s.proxyPrincipal(r); named {
		return p, rej == nil
	}
	c, err := r.Cookie(s.cfg.CookieName)
	if err != nil {
		return Principal{}, false
	}
	rec, ok, err := s.sessions.lookup(r.Context(), c.Value)
	if err != nil || !ok {
		return Principal{}, false
	}
	return s.sessionPrincipal(r.Context(), rec)
}

// tokenPrincipal is who a bearer token acts for. A host token (no grant)
// is the host's owner in all but name: every right everywhere. A connect
// token acts for the person who minted it, within its grant; once that
// person is gone it no longer works.
func (s *Service) tokenPrincipal(ctx context.Context, token string) (Principal, bool) {
	rec, ok := s.verifyBearer(ctx, token)
	if !ok {
		return Principal{}, false
	}
	p, ok := s.recordPrincipal(ctx, rec)
	if ok {
		s.used(p.ID)
	}
	return p, ok
}

// recordPrincipal is who the token of this record acts for, now (tokenPrincipal
// without the hash).
func (s *Service) recordPrincipal(ctx context.Context, rec TokenRecord) (Principal, bool) {
	p := Principal{Kind: PrincipalToken, ID: tokenKey(rec), Name: rec.Name, Person: rec.Person}
	if rec.ExpiresAt != nil && !s.now().Before(*rec.ExpiresAt) {
		return Principal{}, false
	}
	if rec.Grant == nil {
		p.Admin = true
		if p.Person != "" && s.cfg.People != nil {
			p.PersonName, p.HostOwner, _ = s.cfg.People.Person(ctx, p.Person)
		}
		return p, true
	}
	g := *rec.Grant
	p.Grant = &g
	if s.cfg.People == nil || rec.Person == "" {
		return Principal{}, false
	}
	name, owner, ok := s.cfg.People.Person(ctx, rec.Person)
	if !ok {
		return Principal{}, false
	}
	p.PersonName, p.HostOwner = name, owner
	return p, true
}

// tokenKey is the principal id of a token: its record's id, or for a
// configured token without one a prefix of its hash.
func tokenKey(rec TokenRecord) string {
	if rec.ID != "" {
		return rec.ID
	}
	return "sha256:" + strings.ToLower(rec.SHA256)[:12]
}

// sessionPrincipal is who a browser session acts for: its person, or the
// host's owner for a session a login link started (they prove they own
// the process).
func (s *Service) sessionPrincipal(ctx context.Context, rec SessionRecord) (Principal, bool) {
	p := Principal{Kind: PrincipalSession, ID: rec.ID, Name: rec.Label}
	people := s.cfg.People
	if people == nil {
		p.Admin, p.HostOwner = true, true
		return p, true
	}
	person := rec.Person
	if person == "" {
		person = people.OwnerID(ctx)
	}
	name, owner, ok := people.Person(ctx, person)
	if !ok {
		return Principal{}, false
	}
	p.Person, p.PersonName, p.Name, p.Admin, p.HostOwner = person, name, name, owner, owner
	return p, true
}
