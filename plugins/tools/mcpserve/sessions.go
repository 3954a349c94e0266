package mcpserve

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/identity"
)

// Session caps, when Options leaves them zero. They are there to bound
// memory, not to ration agents: one person may run a hundred agents on
// one token, each with its session, and still be well under them.
const (
	DefaultMaxSessions         = 1024
	DefaultMaxSessionsPerOwner = 256
)

// The host settings behind Options.MaxSessions, MaxSessionsPerOwner and
// SessionTimeout: a refusal names the one to raise.
const (
	SettingMaxSessions         = "host.mcp.maxSessions"
	SettingMaxSessionsPerToken = "host.mcp.maxSessionsPerToken"
	SettingSessionIdleTimeout  = "host.mcp.sessionIdleTimeout"
)

// Codes of the HTTP answers the session caps give.
const (
	// CodeTooManySessions (409): an initialize would open a session past
	// a cap. Its details name the cap (limit, setting, max) and the idle
	// timeout after which abandoned sessions free their place.
	CodeTooManySessions = "too_many_sessions"
	// CodeForbiddenSession (403): a request names a session another owner
	// opened.
	CodeForbiddenSession = "forbidden_session"
)

type sessionOwnerKey struct{}

// WithSessionOwner marks ctx with who makes the request: the credential
// the host admitted it with ("token:tok_…"). Server caps the HTTP
// sessions each owner holds (Options.MaxSessionsPerOwner) and serves a
// session only to the owner that opened it. Requests without an owner
// share the owner "".
func WithSessionOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, sessionOwnerKey{}, owner)
}

func sessionOwner(ctx context.Context) string {
	owner, _ := ctx.Value(sessionOwnerKey{}).(string)
	return owner
}

// sessionTable accounts for the Streamable HTTP sessions this server
// opened (who opened each) and enforces the session caps at initialize:
// a session past a cap is refused there, with the cap named, and a
// session once open is never closed to make room for another. (It used to
// be: at a cap the session idle longest went, so of 40 agents on a token
// capped at 32 the 8 that had paused last found their sessions gone at
// their next call, as "session not found", with nothing saying why.)
// Sessions end when their client deletes them, when the idle timeout
// (Options.SessionTimeout) closes them, or when their credential is
// revoked.
//
// The SDK's handler keeps its sessions to itself and tells nobody when one
// ends (idle timeout, DELETE), so the table learns of ends lazily: each
// admission first drops the entries whose session the SDK server no
// longer lists. It holds no goroutine and no timer.
type sessionTable struct {
	maxTotal, maxPerOwner int

	mu       sync.Mutex
	live     map[string]*httpSession // by session id
	pending  map[string]int          // owner → admissions not yet settled
	nPending int
	seq      uint64 // registrations so far
}

// httpSession is one entry of the table.
type httpSession struct {
	id, owner string
	who       identity.Principal // who opened it (the request's identity)
	ss        *mcp.ServerSession
	seq       uint64 // registration order, for pruning
}

// admission is one initialize on its way: a reserved slot.
type admission struct {
	owner   string
	who     identity.Principal // who opens it: its tool calls act for them
	session *httpSession       // set once the SDK opened the session
	settled bool
}

// capRefusal is why an admission is refused: which cap, and how many
// sessions hold it.
type capRefusal struct {
	limit   string // the host setting's name: maxSessions or maxSessionsPerToken
	setting string // its full key: host.mcp.…
	max     int
}

func newSessionTable(maxTotal, maxPerOwner int) *sessionTable {
	return &sessionTable{
		maxTotal: maxTotal, maxPerOwner: maxPerOwner,
		live: make(map[string]*httpSession), pending: make(map[string]int),
	}
}

// admit reserves a slot for a new session of owner, or refuses it at a
// cap (the owner's first: it is the one an owner can do something about).
// liveSessions lists the sessions the SDK server holds now.
func (t *sessionTable) admit(owner string, liveSessions func() []*mcp.ServerSession) (*admission, *capRefusal) {
	t.mu.Lock()
	before := t.seq
	t.mu.Unlock()
	alive := make(map[*mcp.ServerSession]bool)
	for _, ss := range liveSessions() {
		alive[ss] = true
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	for id, s := range t.live {
		// A session registered after the listing may not be in it yet.
		if s.seq <= before && !alive[s.ss] {
			delete(t.live, id)
		}
	}
	total, mine := t.nPending+len(t.live), t.pending[owner]
	for _, s := range t.live {
		if s.owner == owner {
			mine++
		}
	}
	if mine >= t.maxPerOwner {
		return nil, &capRefusal{limit: "maxSessionsPerToken", setting: SettingMaxSessionsPerToken, max: t.maxPerOwner}
	}
	if total >= t.maxTotal {
		return nil, &capRefusal{limit: "maxSessions", setting: SettingMaxSessions, max: t.maxTotal}
	}
	t.pending[owner]++
	t.nPending++
	return &admission{owner: owner}, nil
}

// register records the session the SDK opened for a.
func (t *sessionTable) register(a *admission, id string, ss *mcp.ServerSession) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.settled || a.session != nil || ss == nil {
		return
	}
	t.release(a.owner)
	t.seq++
	s := &httpSession{id: id, owner: a.owner, who: a.who, ss: ss, seq: t.seq}
	t.live[id] = s
	a.session = s
}

// noSession settles a whose answer went out without a session id: that
// request opens no session, so its slot is free again at once (before the
// client, having its answer, sends the next request).
func (t *sessionTable) noSession(a *admission) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.session == nil && !a.settled {
		t.release(a.owner)
		a.settled = true
	}
}

// finish settles a when its request's handler returned: a request that
// opened no session gives its slot back, and so does one whose session is
// not initialized (the SDK gives a failed initialize a session id too, and
// closes that session itself).
func (t *sessionTable) finish(a *admission) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.settled {
		return
	}
	a.settled = true
	s := a.session
	switch {
	case s == nil:
		t.release(a.owner)
	case s.ss.InitializeParams() == nil && t.live[s.id] == s:
		delete(t.live, s.id)
	}
}

func (t *sessionTable) release(owner string) {
	t.nPending--
	if t.pending[owner]--; t.pending[owner] <= 0 {
		delete(t.pending, owner)
	}
}

// forbidden reports whether session id is one another owner opened. A
// session the table does not know (ended, or never this server's) is left
// to the SDK, which answers 404.
func (t *sessionTable) forbidden(id, owner string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.live[id]
	return s != nil && s.owner != owner
}

// whoOf is who opened the HTTP session id (ok=false if it is not one).
func (t *sessionTable) whoOf(id string) (identity.Principal, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.live[id]; s != nil {
		return s.who, true
	}
	return identity.Principal{}, false
}

// ofOwner takes out of the table, and returns, the sessions owner opened:
// its credential was revoked, so they are closed.
func (t *sessionTable) ofOwner(owner string) []*httpSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []*httpSession
	for id, s := range t.live {
		if s.owner == owner {
			delete(t.live, id)
			out = append(out, s)
		}
	}
	return out
}
