// Package identity says who a request or a tool call acts for: the
// credential it came with and the person behind it, with the bounds a
// connect token (a bot) puts on that person's rights. Admission sets it,
// transports carry it, and the plugins that guard data decide with it.
package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Credential kinds.
const (
	KindToken   = "token"   // a bearer token: a host token or a connect token (bot)
	KindSession = "session" // a browser session cookie
	KindProxy   = "proxy"   // a trusted reverse proxy's identity header
	KindLocal   = "local"   // the process itself: stdio MCP, the embedding program
)

// Roles, weakest first. A person has one on each board they reach; a
// bot's is at most its Grant's.
const (
	RoleViewer = "viewer"
	RoleEditor = "editor"
	RoleOwner  = "owner"
)

// Principal is who a request or tool call acts for.
type Principal struct {
	// Kind is how it was authenticated: KindToken, KindSession, KindProxy
	// or KindLocal.
	Kind string
	// ID is the credential's stable, non-secret id ("tok_…", "ses_…"); it
	// is what revocation names.
	ID string
	// Name is for people: the token's (bot's) name, or the person's.
	Name string
	// Person is the id of the person the credential acts for: a session's
	// or proxy's person, a connect token's minter; "" for host tokens and
	// the local process.
	Person string
	// PersonName is that person's name, for attribution.
	PersonName string
	// HostOwner marks a principal whose person is the host's owner (their
	// session, or a connect token they minted).
	HostOwner bool
	// Admin marks a principal with every right on every board: the host's
	// owner in person, a host token (the CLI's, `dsh token create` without
	// a board), the local process.
	Admin bool
	// Grant bounds a connect token (what it reaches, as its plugin says).
	// nil for everything that is not a bot.
	Grant *Grant
}

// Grant is what a connect token (a bot) may reach, on top of the person
// who minted it (never more than that person's own rights), in the terms
// of the plugin that minted it: only that plugin reads it (the Excalidraw
// plugin's is access.Grant). The host keeps it verbatim, as JSON, in the
// token record, and knows only that a bot has one.
type Grant struct{ raw json.RawMessage }

// NewGrant is the grant holding v, which must encode as a JSON object (a
// plugin's grant struct); anything else is a programming error and
// panics.
func NewGrant(v any) *Grant {
	raw, err := json.Marshal(v)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		panic(fmt.Sprintf("identity: a grant must be a JSON object, not %T (%v)", v, err))
	}
	return &Grant{raw: raw}
}

// Decode reads the grant into v (a plugin's grant struct).
func (g *Grant) Decode(v any) error {
	if g == nil || len(g.raw) == 0 {
		return errors.New("identity: no grant")
	}
	return json.Unmarshal(g.raw, v)
}

// MarshalJSON is the grant as it was given.
func (g Grant) MarshalJSON() ([]byte, error) {
	if len(g.raw) == 0 {
		return []byte("{}"), nil
	}
	return g.raw, nil
}

// UnmarshalJSON keeps a JSON object as it is.
func (g *Grant) UnmarshalJSON(b []byte) error {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil || probe == nil {
		return fmt.Errorf("identity: a grant must be a JSON object")
	}
	g.raw = append(json.RawMessage(nil), b...)
	return nil
}

// String is "kind:id", e.g. "token:tok_1a2b3c4d5e6f": the key sessions
// and rate limits are accounted under.
func (p Principal) String() string { return p.Kind + ":" + p.ID }

// IsBot reports whether p is a connect token, bound by a Grant.
func (p Principal) IsBot() bool { return p.Grant != nil }

// Display names p in attributions: "bot (via person)" for a bot, else
// its name.
func (p Principal) Display() string {
	if p.Grant != nil && p.PersonName != "" {
		return p.Name + " (for " + p.PersonName + ")"
	}
	return p.Name
}

// Author names p on what it changes (a board's history, its list, the
// live events): a bot as Display does ("claude (for erin)"), a person by
// their name, a host token by its name ("a host token" when it has none),
// a session of a host that keeps no people as "the owner" (its Name is
// the browser's), the process itself as "local". What a client says it
// is never names it: the credential does.
func (p Principal) Author() string {
	switch {
	case p.Grant != nil:
		return p.Display()
	case p.Kind == KindSession || p.Kind == KindProxy:
		if p.PersonName != "" {
			return p.PersonName
		}
		return "the owner"
	case p.Kind == KindToken && p.Name == "":
		return "a host token"
	}
	return p.Name
}

// Local is the process itself (stdio MCP, the embedding program): every
// right, as the person who started it has on their own files.
var Local = Principal{Kind: KindLocal, ID: "local", Name: "local", Admin: true}

type key struct{}

// With marks ctx as acting for p.
func With(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, key{}, p)
}

// From is the principal ctx acts for. ok is false for a context no
// transport marked: in-process callers (the embedding program, tests of a
// package on its own), which act as Local.
func From(ctx context.Context) (p Principal, ok bool) {
	p, ok = ctx.Value(key{}).(Principal)
	return p, ok
}

// Of is From with Local for an unmarked context.
func Of(ctx context.Context) Principal {
	if p, ok := From(ctx); ok {
		return p
	}
	return Local
}
