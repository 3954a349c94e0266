package mcpserve

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// newStreamableHandler configures the SDK's Streamable HTTP handler.
//
// Admission (authentication, Host/Origin policy, the body limit, which
// the host passes down as MaxRequestBodyBytes) is the host's job and
// happens before this handler,
// so nothing here duplicates it; the session caps are HTTPHandler's:
//   - stateful sessions, because list_changed notifications need a
//     session with a standalone SSE stream;
//   - the SDK's localhost DNS-rebinding check stays on: it only rejects a
//     loopback connection whose Host header is not loopback, which the
//     host's own Host check rejects too, so it can never overrule the host;
//   - no CrossOriginProtection (deprecated in the SDK; Origin is the
//     host's concern);
//   - an in-memory event store, so a client whose SSE stream drops in the
//     middle of a call reconnects with Last-Event-ID and still receives the
//     result (the answer to a committed write is not lost with the
//     connection). It is bounded by replayBufferBytes and forgets a
//     session's events when the session ends.
//
// Stateless (Options.Stateless, for several nodes behind one address)
// drops the sessions and with them the event store: a resumed stream
// could land on another node, which never saw its events.
func newStreamableHandler(s *mcp.Server, timeout time.Duration, maxBody int64, stateless bool, log *slog.Logger) *mcp.StreamableHTTPHandler {
	opts := &mcp.StreamableHTTPOptions{
		SessionTimeout:      timeout,
		Logger:              log,
		MaxRequestBodyBytes: maxBody,
		Stateless:           stateless,
	}
	if !stateless {
		events := mcp.NewMemoryEventStore(nil)
		events.SetMaxBytes(replayBufferBytes)
		opts.EventStore = events
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
}

// replayBufferBytes bounds the events kept for stream resumption across all
// sessions; the oldest are purged first.
const replayBufferBytes = 8 << 20

// HTTPHandler returns the Streamable HTTP endpoint. Mount it behind the
// host's authentication, which should name the request's credential with
// WithSessionOwner. After Close it answers 503.
//
// Sessions are capped in total and per owner (Options.MaxSessions,
// MaxSessionsPerOwner). A request without a session id may open one, so
// it first reserves a slot: at a cap the session idle longest (the owner's
// own, for the per-owner cap) is closed to make room once the new session
// is open, and with none idle the request is refused before the SDK sees
// it with 503 too_many_sessions. A request naming a session another owner
// opened is refused with 403 forbidden_session.
func (m *Server) HTTPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.enter() {
			http.Error(w, ErrClosed.Error(), http.StatusServiceUnavailable)
			return
		}
		defer m.leave()
		m.serveHTTP(w, r)
	})
}

// sessionIDHeader is the Streamable HTTP transport's session header.
const sessionIDHeader = "Mcp-Session-Id"

// serveHTTP accounts for r in the session table (see HTTPHandler) and
// hands it to the SDK.
func (m *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if m.stateless {
		m.http.ServeHTTP(w, r) // no session to account for
		return
	}
	owner := sessionOwner(r.Context())
	if id := r.Header.Get(sessionIDHeader); id != "" {
		done, closing, forbidden := m.sessions.use(id, owner, r.Method != http.MethodGet)
		if forbidden {
			writeHTTPError(w, http.StatusForbidden, CodeForbiddenSession, "this MCP session was opened with another credential", nil)
			return
		}
		m.closeToMakeRoom(closing)
		defer done()
		m.http.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		m.http.ServeHTTP(w, r) // the SDK refuses it: GET and DELETE need a session
		return
	}
	// Any POST without a session may be an initialize (looking would mean
	// reading the body first); one that opens no session gives its slot
	// back and closes nobody.
	a, refused := m.sessions.admit(owner, m.liveSessions)
	if a != nil {
		a.who, _ = identity.From(r.Context())
	}
	if refused != nil {
		writeHTTPError(w, http.StatusServiceUnavailable, CodeTooManySessions,
			fmt.Sprintf("too many MCP sessions are open and none is idle (%s is %d); close one or try again later", refused.limit, refused.max),
			map[string]any{"limit": refused.limit, "max": refused.max})
		return
	}
	cw := &sessionCapture{ResponseWriter: w, answered: func(id string) {
		if id == "" {
			m.sessions.noSession(a)
			return
		}
		m.sessions.register(a, id, m.findSession(id))
	}, writing: func() { m.closeToMakeRoom(m.sessions.initialized(a)) }}
	// Deferred, so that even a panic in the SDK (which net/http recovers
	// from) gives the slot back.
	defer func() { m.closeToMakeRoom(m.sessions.finish(a)) }()
	m.http.ServeHTTP(cw, r)
}

// CloseSessionsOf closes every HTTP session owner (a principal's
// "kind:id", see WithSessionOwner) opened: its credential was revoked. It
// reports how many it closed.
func (m *Server) CloseSessionsOf(owner string) int {
	victims := m.sessions.ofOwner(owner)
	for _, v := range victims {
		m.log.Info("closing an MCP session: its credential was revoked", zap.String("session", v.id), zap.String("owner", owner))
		if err := v.ss.Close(); err != nil {
			m.log.Debug("closing MCP session", zap.String("session", v.id), zap.Error(err))
		}
	}
	return len(victims)
}

// closeToMakeRoom closes the sessions a new one replaces.
func (m *Server) closeToMakeRoom(victims []*httpSession) {
	for _, v := range victims {
		m.log.Info("closing the MCP session idle longest to make room for a new one",
			zap.String("session", v.id), zap.String("owner", v.owner), zap.Time("lastUsed", v.lastUsed))
		if err := v.ss.Close(); err != nil {
			m.log.Debug("closing MCP session", zap.String("session", v.id), zap.Error(err))
		}
	}
}

// liveSessions lists the sessions the SDK server holds now (HTTP and stdio).
func (m *Server) liveSessions() []*mcp.ServerSession {
	return slices.Collect(m.server.Sessions())
}

// findSession is the SDK's session with id, or nil.
func (m *Server) findSession(id string) *mcp.ServerSession {
	for ss := range m.server.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

// sessionCapture passes a response through and, when its header goes
// out, reports the session id it carries with a 2xx status (the SDK's
// answer to an initialize), or "" for any other answer, so the table
// knows before the client does. Before each write of the body it calls
// writing: the write that carries the initialize's result is the first
// after the session is initialized (an event stream may start with a
// priming event before that).
type sessionCapture struct {
	http.ResponseWriter
	answered func(id string)
	writing  func()
	seen     sync.Once // the SDK may write from more than one goroutine
}

func (c *sessionCapture) capture(status int) {
	c.seen.Do(func() { c.report(status) })
}

func (c *sessionCapture) report(status int) {
	id := c.Header().Get(sessionIDHeader)
	if status < 200 || status > 299 {
		id = ""
	}
	c.answered(id)
}

func (c *sessionCapture) WriteHeader(status int) {
	c.capture(status)
	c.ResponseWriter.WriteHeader(status)
}

func (c *sessionCapture) Write(b []byte) (int, error) {
	c.capture(http.StatusOK)
	c.writing()
	return c.ResponseWriter.Write(b)
}

// Flush lets event streams through (the SDK flushes each event).
func (c *sessionCapture) Flush() {
	c.capture(http.StatusOK)
	_ = http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (c *sessionCapture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// writeHTTPError answers with the host's JSON error shape.
func writeHTTPError(w http.ResponseWriter, status int, code, message string, details map[string]any) {
	_ = apierr.Write(w, status, code, message, details)
}
