// Package identity says who a request or a tool call acts for: the
// credential it came with and the person behind it, with the bounds a
// connect token (a bot) puts on that person's rights. Admission sets it,
// transports carry it, and the plugins that guard data decide with it.
package identity

import "context"

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
	// Grant bounds a connect token: the boards it reaches and its role.
	// nil for everything that is not a bot.
	Grant *Grant
}

// Grant is what a connect token (a bot) may reach, on top of the person
// who minted it: never more than that person's own rights.
type Grant struct {
	// Role is RoleEditor or RoleViewer: the most the bot may do on a board
	// it reaches (less if its person has less there).
	Role string `json:"role"`
	// Boards are the boards it reaches, by name.
	Boards []string `json:"boards,omitempty"`
	// Created are the boards it created: it writes there whatever Role
	// says (create_board binds them to it with write).
	Created []string `json:"created,omitempty"`
	// Folders are folders (by id) whose boards it reaches too.
	Folders []string `json:"folders,omitempty"`
	// CanCreateBoards lets it create boards (each bound to it, with write).
	CanCreateBoards bool `json:"canCreateBoards,omitempty"`
	// CanCreateFolders lets it create folders (its person's).
	CanCreateFolders bool `json:"canCreateFolders,omitempty"`
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
