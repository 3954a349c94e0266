package mcpserve

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/identity"
)

// Session caps, when Options leaves them zero. A person's agents open a
// handful of sessions; an agent restarted without saying goodbye leaves
// its old one behind until the idle timeout, and at the cap the oldest
// idle one makes room, so the caps only bite when every session is busy.
const (
	DefaultMaxSessions         = 64
	DefaultMaxSessionsPerOwner = 32
)

// Codes of the HTTP answers the session caps give (JSON
// {"error":{"code","message","details"}}).
const (
	// CodeTooManySessions (503): a new session would exceed a cap and no
	// session under it is idle to make room.
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
// opened: who opened each, whether a request of it is being served and
// when it was last used, and it enforces the session caps.
//
// The SDK's handler keeps its sessions to itself and tells nobody when one
// ends (idle timeout, DELETE), so the table learns of ends lazily: each
// admission first drops the entries whose session the SDK server no
// longer lists. It holds no goroutine and no timer; the SDK's own idle
// timeout (Options.SessionTimeout) still closes idle sessions.
//
// A session is busy while one of its POST or DELETE requests is being
// served. Its standalone SSE stream (a GET that stays open for the
// session's life) does not make it busy, as it does not pause the SDK's
// idle timer either; otherwise no client with a stream open could ever be
// idle.
type sessionTable struct {
	maxTotal, maxPerOwner int
	now                   func() time.Time

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
	seq       uint64 // registration order, for ties and pruning
	busy      int
	// lastUsed is when its last request started. Starts, unlike ends,
	// come in the order a client sends its requests (a handler returns a
	// little after its answer is out).
	lastUsed time.Time
	// doomed marks a session chosen to make room for an admission that is
	// still running; it is closed if that admission opens its session and
	// kept otherwise, so a failed initialize closes nothing.
	doomed bool
	// adm is the admission that opened this session until it is settled.
	adm *admission
}

// admission is one initialize on its way: a reserved slot and the
// sessions that make room for it.
type admission struct {
	owner   string
	who     identity.Principal // who opens it: its tool calls act for them
	victims []*httpSession
	session *httpSession // set once the SDK opened the session
	settled bool
}

// capRefusal is why an admission is refused.
type capRefusal struct {
	limit string // the host setting: maxSessions or maxSessionsPerToken
	max   int
}

func newSessionTable(maxTotal, maxPerOwner int) *sessionTable {
	return &sessionTable{
		maxTotal: maxTotal, maxPerOwner: maxPerOwner, now: time.Now,
		live: make(map[string]*httpSession), pending: make(map[string]int),
	}
}

// admit reserves a slot for a new session of owner. At a cap, the session
// idle longest (of the owner, for its cap) is doomed to make room; with
// none idle the admission is refused. liveSessions lists the sessions the
// SDK server holds now.
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
	total, mine := t.nPending, t.pending[owner]
	for _, s := range t.live {
		if s.doomed {
			continue
		}
		total++
		if s.owner == owner {
			mine++
		}
	}
	a := &admission{owner: owner}
	refuse := func(limit string, max int) (*admission, *capRefusal) {
		for _, v := range a.victims {
			v.doomed = false
		}
		return nil, &capRefusal{limit: limit, max: max}
	}
	// Loops, not ifs: a busy session that was to make room is kept (see
	// settle), so the table may be one over a cap until the next admission.
	for ; mine >= t.maxPerOwner; mine-- {
		v := t.oldestIdle(func(s *httpSession) bool { return s.owner == owner })
		if v == nil {
			return refuse("maxSessionsPerToken", t.maxPerOwner)
		}
		v.doomed = true
		a.victims = append(a.victims, v)
		total--
	}
	for ; total >= t.maxTotal; total-- {
		v := t.oldestIdle(func(*httpSession) bool { return true })
		if v == nil {
			return refuse("maxSessions", t.maxTotal)
		}
		v.doomed = true
		a.victims = append(a.victims, v)
	}
	t.pending[owner]++
	t.nPending++
	return a, nil
}

// oldestIdle is the session idle longest (whose last request started
// first) among those that match, or nil when all of them are busy.
func (t *sessionTable) oldestIdle(match func(*httpSession) bool) *httpSession {
	var best *httpSession
	for _, s := range t.live {
		if s.doomed || s.busy > 0 || !match(s) {
			continue
		}
		if best == nil || s.lastUsed.Before(best.lastUsed) || (s.lastUsed.Equal(best.lastUsed) && s.seq < best.seq) {
			best = s
		}
	}
	return best
}

// register records the session the SDK opened for a, busy with the
// initialize that opened it.
func (t *sessionTable) register(a *admission, id string, ss *mcp.ServerSession) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.session != nil || ss == nil {
		return
	}
	t.release(a.owner)
	t.seq++
	s := &httpSession{id: id, owner: a.owner, who: a.who, ss: ss, seq: t.seq, busy: 1, lastUsed: t.now(), adm: a}
	t.live[id] = s
	a.session = s
}

// noSession settles a whose answer went out without a session id: that
// request opens no session, so its slot is free again at once (before the
// client, having its answer, sends the next request).
func (t *sessionTable) noSession(a *admission) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.session == nil {
		t.settle(a, true)
	}
}

// initialized settles a once the session it opened is initialized,
// returning the sessions to close; until then it returns none.
func (t *sessionTable) initialized(a *admission) []*httpSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.settle(a, false)
}

// finish ends the initialize of a: the session it opened is no longer busy
// with it, and a is settled if it was not already (see settle). It
// returns the sessions to close, outside the table's lock.
func (t *sessionTable) finish(a *admission) []*httpSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := a.session; s != nil && t.live[s.id] == s {
		s.busy--
	}
	return t.settle(a, true)
}

// settle decides a's doomed sessions once: if a opened a session that is
// initialized, they are taken out of the table and returned, to be closed.
// That is known when the initialize's result is written (so room is made
// before the client learns its session is open), at the new session's
// first request, or when the initialize's handler returns, whichever comes
// first. When the initialize opened no session, or one
// that is not initialized (the SDK gives a failed initialize a session id
// too, and closes that session itself), settle with final set keeps the
// doomed sessions: a failed initialize closes nothing.
func (t *sessionTable) settle(a *admission, final bool) []*httpSession {
	if a.settled {
		return nil
	}
	s := a.session
	if s == nil || s.ss.InitializeParams() == nil {
		if !final {
			return nil
		}
		if s == nil {
			t.release(a.owner)
		} else if t.live[s.id] == s {
			delete(t.live, s.id)
		}
		for _, v := range a.victims {
			v.doomed = false
		}
		a.settled = true
		return nil
	}
	a.settled = true
	s.adm = nil
	var closing []*httpSession
	for _, v := range a.victims {
		if t.live[v.id] != v {
			continue // ended meanwhile
		}
		if v.busy > 0 {
			// A request came for it meanwhile: closing it now would wait
			// for that request (holding up this answer) and could lose its
			// result, so it stays, and the table is one over the cap until
			// an admission finds it idle.
			v.doomed = false
			continue
		}
		delete(t.live, v.id)
		closing = append(closing, v)
	}
	return closing
}

func (t *sessionTable) release(owner string) {
	t.nPending--
	if t.pending[owner]--; t.pending[owner] <= 0 {
		delete(t.pending, owner)
	}
}

// use accounts for a request of session id by owner: it uses the session
// and keeps it busy until done is called, unless it is a GET (a standalone
// stream, or one resumed). forbidden is true when the
// session is another owner's. closing are sessions that made room for
// this one, for the caller to close before serving the request. A
// session the table does not know (ended, or never this server's) is left
// to the SDK, which answers 404.
func (t *sessionTable) use(id, owner string, busy bool) (done func(), closing []*httpSession, forbidden bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.live[id]
	if s == nil {
		return func() {}, nil, false
	}
	if s.owner != owner {
		return nil, nil, true
	}
	if s.adm != nil {
		closing = t.settle(s.adm, false)
	}
	if !busy {
		// A standalone stream is no use either: a client opens one on its
		// own, whenever it likes, and keeps it open.
		return func() {}, closing, false
	}
	s.lastUsed = t.now()
	s.busy++
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		s.busy--
	}, closing, false
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
